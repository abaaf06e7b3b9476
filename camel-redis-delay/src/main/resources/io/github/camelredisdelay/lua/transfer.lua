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
  Moves due messages from the due set to the ready stream, oldest due time first, and tells how long
  until the next one is due, so the caller can sleep exactly that long. Time is Redis' own clock.

  Includes: due-set.lua, batches.lua, key-kinds.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua). The wake channel is
  told WAKE_READY once when messages were moved (waiting consumers read then). Stream entries get FIELD_ID,
  FIELD_RECORD and, for a message that failed before, FIELD_FAILURE (wire.lua).
  ARGV[3] at most this many messages are moved

  Returns {moved, nextDelay}
    moved:     messages moved now
    nextDelay: µs until the next due message (from Redis' clock in µs, so a timer armed with it is not up to a
               ms late); 0 when more are due now; -1 when none is scheduled
  A WRONGTYPE error naming the key, and nothing moved, when one of the queue's keys, or the first due bucket of its due
  set, holds a value of another type (key-kinds.lua); a later due bucket that does stops the transfer before it, what
  came before it moved (nextDelay 0)
]]
local batch = tonumber(ARGV[3])

local now, nowMicros = redisNow()

-- Due entries come from the first buckets, in order; a bucket left with entries holds none that is due, and the
-- buckets after it none either.
local ids = {}
local stoppedAtRefusal = false
while #ids < batch do
  local first = rcall('ZRANGE', dueKey, 0, 0, 'WITHSCORES')
  if #first == 0 or tonumber(first[2]) > now then
    break
  end
  local bucket = bucketKey(dueKey, first[1])
  local due = redis.pcall('ZRANGEBYSCORE', bucket, '-inf', decimal(now), 'LIMIT', '0', batch - #ids)
  if due.err then
    if #ids == 0 then
      return namingKey(due, bucket, 'a bucket of its due set, a sorted set')
    end
    -- a value of another type under this bucket's name: what the buckets before it gave still reaches the ready
    -- stream, and the next call, which finds this bucket first, reports it
    stoppedAtRefusal = true
    break
  end
  if #due > 0 and #ids == 0 then
    -- before anything leaves the due set: a key the messages go to that Redis refuses would leave them nowhere
    local foreign = foreignValue()
    if foreign then
      return foreign
    end
  end
  for i = 1, #due do
    ids[#ids + 1] = due[i]
  end
  if #due > 0 then
    -- the ids just read are exactly the lowest ranks of the bucket
    rcall('ZREMRANGEBYRANK', bucket, 0, #due - 1)
  end
  if rcall('EXISTS', bucket) == 1 then
    break
  end
  rcall('ZREM', dueKey, first[1])
end

local moved = #ids
if moved > 0 then
  local records, failures = hashValues(msgKey, ids), hashValues(failKey, ids)
  for j = 1, moved do
    local record, failure = records[j], failures[j]
    if record and failure then
      addReady(FIELD_ID, ids[j], FIELD_RECORD, record, FIELD_FAILURE, failure)
    elseif record then
      addReady(FIELD_ID, ids[j], FIELD_RECORD, record)
    end
  end
end

if moved > 0 then
  rcall('PUBLISH', wake, WAKE_READY)
end

local nextDelay = 0
if moved < batch and not stoppedAtRefusal then
  local earliest = earliestDue(dueKey)
  nextDelay = earliest and math.max(0, earliest * 1000 - nowMicros) or -1
end
return {moved, nextDelay}
