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
  notes. Called again, with the progress the last call returned, until it reports the purge done, so that no single
  call blocks Redis for long.

  Every message the queue held when the purge started is removed, however many are scheduled meanwhile. The first
  call notes the ready stream's last entry, and the calls remove the stream's entries from its head up to that one
  first: a message in flight then whose delivery fails meanwhile is scheduled again before the due set is walked. The
  call that finds them gone notes the latest due time then scheduled, and the calls walk the due set from the earliest
  due time up to it, in due order, each going on from where the last stopped; messages scheduled meanwhile with a due
  time behind that point are left (they are newer than the purge). Once the walk is past the noted due time, every
  message of the start is gone or moved to the ready stream, whose last entry the same call notes: the next calls
  remove the stream's entries from its head up to that one. Every call removes ready messages from the stream's head
  first, before it deletes anything else, so that a refused XACK (an ACL without it) fails the call with the queue
  whole. A message of the start whose delivery fails while the purge runs would be scheduled again, perhaps behind the
  walk: the first call marks the purge under way (purge-mark.lua, which counts purges of the queue at once, so that
  one that ends leaves the mark to the others), and retry.lua removes such a message instead. A stream entry takes
  its message's record along only while that is the entry's version: a newer one (a replace or re-delay of a message
  ready or in flight) is in the due set or the stream on its own, and goes with the walk or its own entry, or, stored
  after the purge started, may stay.

  Includes: record.lua, due-set.lua, ready-stream.lua, redrive-claims.lua, purge-mark.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] chunk: the most messages this call removes from each of the due set and the ready stream
  ARGV[4] dueFrom:  the due time (epoch ms) the walk goes on from; '' until the walk starts
  ARGV[5] dueTo:    the latest due time scheduled when the walk started ('-1': none); '' until then
  ARGV[6] streamTo: before the walk, the last ready stream entry when the purge started; during it, ''; after it, the
                    last ready stream entry when the walk was past dueTo; '' in the first call

  Returns {removed, done, dueFrom, dueTo, streamTo}
    removed: messages of the queue removed by this call (records deleted from msg)
    done:    1 when every message of the purge's start is removed, else 0
    dueFrom, dueTo, streamTo: the progress, for the next call's ARGV[4] to ARGV[6]
]]
local chunk = tonumber(ARGV[3])
local dueFrom, dueTo, streamTo = ARGV[4], ARGV[5], ARGV[6]
local removed = 0

local function forget(ids)
  if #ids > 0 then
    removed = removed + rcall('HDEL', msgKey, unpack(ids))
    rcall('HDEL', failKey, unpack(ids))
  end
end

-- The ids of ready stream entries whose records to remove with them: of each entry's id, unless a newer version of it
-- is stored (a replace or re-delay of a message in flight), which is in the due set or the ready stream on its own,
-- where the walk or its own entry finds it; removing its record here would leave its id in the due set without one.
local function ownRecords(entries)
  local ids, records = {}, {}
  for _, entry in ipairs(entries) do
    local id, record = entryFields(entry[2])
    if id then
      ids[#ids + 1], records[#records + 1] = id, record
    end
  end
  if #ids == 0 then
    return ids
  end
  local stored, own = rcall('HMGET', msgKey, unpack(ids)), {}
  for i = 1, #ids do
    if not (isRecord(records[i]) and isRecord(stored[i])) or versionOf(stored[i]) == versionOf(records[i]) then
      own[#own + 1] = ids[i]
    end
  end
  return own
end

-- Removes the redrives' claims on the queue's dead letters, keeping the turn while a redrive holds it (its expiry after
-- now): a second redrive would otherwise start beside the one running while its dead-letter queue is purged.
local function forgetClaimsKeepingTurn(now)
  local turn = rcall('HGET', redriveClaimsKey, TURN)
  rcall('UNLINK', redriveClaimsKey)
  if select(2, claimOf(turn)) > now then
    rcall('HSET', redriveClaimsKey, TURN, turn)
  end
end

-- Whether the ready stream still holds an entry up to entryId.
local function streamHoldsUpTo(entryId)
  return #rcall('XRANGE', readyKey, '-', entryId, 'COUNT', 1) > 0
end

local firstCall = dueTo == '' and streamTo == ''
if firstCall then
  -- the ready stream's last entry now, the last of those removed before the walk
  streamTo = newestEntryId()
end

-- the ready stream from its head: ready and in-flight entries alike; XACK drops a lease, XDEL the entry
local entries = rcall('XRANGE', readyKey, '-', streamTo == '' and '+' or streamTo, 'COUNT', chunk)
if #entries > 0 then
  local entryIds = {}
  for _, entry in ipairs(entries) do
    entryIds[#entryIds + 1] = entry[1]
  end
  local ids = ownRecords(entries)
  -- before anything is deleted: a refused XACK fails the call with the queue whole
  rcall('XACK', readyKey, group, unpack(entryIds))
  forget(ids)
  rcall('XDEL', readyKey, unpack(entryIds))
end

if dueTo == '' and not streamHoldsUpTo(streamTo) then
  -- the ready and in-flight messages of the start are gone: the walk starts, up to the latest due time scheduled now
  dueFrom, dueTo, streamTo = '0', '-1', ''
  local last = rcall('ZRANGE', dueKey, -1, -1)[1]
  if last then
    dueTo = decimal(tonumber(rcall('ZRANGE', bucketKey(dueKey, last), -1, -1, 'WITHSCORES')[2]))
  end
end

-- the due set, in due order from dueFrom up to dueTo, bucket by bucket, while the chunk lasts
local from, to = tonumber(dueFrom), tonumber(dueTo)
local taken = 0
if dueTo ~= '' and from <= to then
  -- the bucket that holds dueFrom, else (dueFrom lies before every bucket) the first
  local name = rcall('ZREVRANGEBYSCORE', dueKey, decimal(from), '-inf', 'LIMIT', '0', '1')[1]
      or rcall('ZRANGE', dueKey, 0, 0)[1]
  while name and taken < chunk do
    local bound = tonumber(rcall('ZSCORE', dueKey, name))
    if bound > to then
      break
    end
    local bucket = bucketKey(dueKey, name)
    local scheduled = rcall('ZRANGEBYSCORE', bucket, decimal(from), decimal(to), 'WITHSCORES', 'LIMIT', '0',
        chunk - taken)
    if #scheduled > 0 then
      local ids = {}
      for i = 1, #scheduled, 2 do
        ids[#ids + 1] = scheduled[i]
      end
      forget(ids)
      rcall('ZREM', bucket, unpack(ids))
      if rcall('EXISTS', bucket) == 0 then
        rcall('ZREM', dueKey, name)
      end
      taken = taken + #ids
      from = tonumber(scheduled[#scheduled])
    end
    if taken < chunk then
      -- nothing more of the range in this bucket: the next one
      name = rcall('ZRANGEBYSCORE', dueKey, '(' .. decimal(bound), '+inf', 'LIMIT', '0', '1')[1]
    end
  end
  if taken < chunk then
    -- the walk is past dueTo
    from = to + 1
  end
end
if dueTo ~= '' and from > to and streamTo == '' then
  -- every message of the start that is not removed was moved to the ready stream before this instant
  streamTo = newestEntryId()
end

local done = 0
if dueTo ~= '' and streamTo ~= '' and not streamHoldsUpTo(streamTo) then
  done = 1
end
if rcall('EXISTS', dueKey) == 0 and rcall('XLEN', readyKey) == 0 then
  -- records in neither structure (none, unless written behind the component's back) go once both are empty, however
  -- many: UNLINK frees a large hash in the background, so it does not block Redis
  removed = removed + rcall('HLEN', msgKey)
  rcall('UNLINK', msgKey, failKey)
  forgetClaimsKeepingTurn(redisNow())
  done = 1
end
if done == 1 then
  if not firstCall then
    endPurge()
  end
else
  local now = redisNow()
  if firstCall then
    -- the purge's start, for retry.lua
    beginPurge(now)
  end
  rcall('HSET', purgeMarkKey, 'until', now + PURGE_MARK_TTL_MS)
end
return {removed, done, from and decimal(from) or dueFrom, dueTo, streamTo}
