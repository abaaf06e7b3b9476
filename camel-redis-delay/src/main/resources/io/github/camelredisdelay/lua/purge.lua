--
-- Copyright The camel-redis-delay authors
--
-- Licensed under the Apache License, Version 2.0 (the "License");
-- you may not use this file except in compliance with the License.
-- You may obtain a copy of the License at
--
--     https://www.apache.org/licenses/LICENSE-2.0
--
-- Unless required by applicable law or agreed to in writing, software
-- distributed under the License is distributed on an "AS IS" BASIS,
-- WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
-- See the License for the specific language governing permissions and
-- limitations under the License.
--

--[[
  Removes up to a chunk of a queue's messages, whatever their state: scheduled (the due set), ready and in flight
  (the ready stream; a consumer that still holds one finds it gone when it settles), with their records and failure
  notes. Called again until it reports nothing left, so that no single call blocks Redis for long.

  Includes: due-set.lua, redrive-claims.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] chunk: the most messages this call removes from each of the due set and the ready stream

  Returns {removed, more}
    removed: messages of the queue removed by this call (records deleted from msg)
    more:    1 when the queue may hold more messages, 0 when it is empty
]]
local chunk = tonumber(ARGV[3])
local removed = 0

local function forget(ids)
  if #ids > 0 then
    removed = removed + rcall('HDEL', msgKey, unpack(ids))
    rcall('HDEL', failKey, unpack(ids))
  end
end

-- the ready stream first: ready and in-flight entries alike; XACK drops a lease, XDEL the entry
local entries = rcall('XRANGE', readyKey, '-', '+', 'COUNT', chunk)
if #entries > 0 then
  local entryIds, ids = {}, {}
  for _, entry in ipairs(entries) do
    entryIds[#entryIds + 1] = entry[1]
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == FIELD_ID then
        ids[#ids + 1] = fields[i + 1]
      end
    end
  end
  -- before anything is deleted: a refused XACK (an ACL without it) fails the call with the queue whole
  rcall('XACK', readyKey, group, unpack(entryIds))
  forget(ids)
  rcall('XDEL', readyKey, unpack(entryIds))
end

-- the due set, whole buckets from the first while the chunk lasts
local taken = 0
while taken < chunk do
  local name = rcall('ZRANGE', dueKey, 0, 0)[1]
  if not name then
    break
  end
  local bucket = bucketKey(dueKey, name)
  local ids = rcall('ZRANGE', bucket, 0, chunk - taken - 1)
  forget(ids)
  rcall('ZREMRANGEBYRANK', bucket, 0, #ids - 1)
  if rcall('EXISTS', bucket) == 0 then
    rcall('ZREM', dueKey, name)
  end
  taken = taken + #ids
end

if rcall('EXISTS', dueKey) == 0 and rcall('XLEN', readyKey) == 0 then
  -- records in neither structure (none, unless written behind the component's back) go with the last chunk, however
  -- many: UNLINK frees a large hash in the background, so it does not block Redis
  removed = removed + rcall('HLEN', msgKey)
  rcall('UNLINK', msgKey, failKey, redriveClaimsKey)
  return {removed, 0}
end
return {removed, 1}
