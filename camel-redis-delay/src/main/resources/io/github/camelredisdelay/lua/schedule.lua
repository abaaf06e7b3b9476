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
  Schedules messages: stores each record and makes it due at a time computed from Redis' own clock. A message that
  is already due goes straight to the ready stream. Messages are handled in order, each on its own: a duplicate or
  an overflowing due time is reported for that message and changes nothing, the others are stored.

  Includes: record.lua, due-set.lua, key-kinds.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua). The wake channel is
  told the delay (ms) to a new earliest due time, and WAKE_READY once per call when a message went straight to the
  ready stream.
  ARGV[3] on, five per message:
  ARGV[i]     message id
  ARGV[i + 1] envelope (binary, opaque here)
  ARGV[i + 2] "delay": ARGV[i + 3] is a delay in ms from now; "at": ARGV[i + 3] is an absolute due time in epoch ms
  ARGV[i + 3] the delay or due time, a non-negative integer
  ARGV[i + 4] on duplicate id: "keep", "replace" or "fail"

  A value under the id that is too short to be a record (record.lua's isRecord) is no message and is overwritten
  whatever the duplicate rule. A replaced message that is still scheduled is taken out of the due set. One that is
  ready or in flight stays where it is and is delivered (or settled) as it was; the new version is stored beside it
  as another version (record.lua), so settling the old delivery leaves the new version alone.

  Returns {now, status, dueAt, status, dueAt, ...}: a status and due time per message, in order (wire.lua)
    STATUS_SCHEDULED:    stored; dueAt is the stored due time
    STATUS_REPLACED:     stored in place of the existing message with this id (onDuplicate "replace"); dueAt as for
                         STATUS_SCHEDULED
    STATUS_KEPT:         kept the existing message with this id; dueAt is its due time, or -1 once it is ready or
                         in flight
    STATUS_DUPLICATE:    on duplicate "fail" and the id exists; dueAt as for STATUS_KEPT
    STATUS_DUE_OVERFLOW: the due time is beyond 2^53 - 1 ms; dueAt is -1
  A WRONGTYPE error naming the key, and nothing stored, when one of the queue's keys, or a bucket of its due set that
  a message goes to, holds a value of another type (key-kinds.lua)
]]

local now, nowMicros = redisNow()

-- Whether a message of this status was stored (new, or in place of another)
local function stored(status)
  return status == STATUS_SCHEDULED or status == STATUS_REPLACED
end

local function schedule(id, envelope, dueAt, onDuplicate)
  if not dueAt then
    return STATUS_DUE_OVERFLOW, -1
  end
  local record = recordOf(envelope, now, dueAt, freshGeneration(nowMicros))
  -- the call's first write: a message hash Redis refuses (key-kinds.lua) fails it before anything is stored
  local foreign, added = refusedOn(msgKey, MSG_KIND, 'HSETNX', msgKey, id, record)
  if foreign then
    return foreign
  end
  local status = STATUS_SCHEDULED
  if added == 0 then
    local existing = rcall('HGET', msgKey, id)
    local existingDue = isRecord(existing) and dueOfRecord(existing)
    if existingDue and onDuplicate ~= 'replace' then
      local status = onDuplicate == 'fail' and STATUS_DUPLICATE or STATUS_KEPT
      return status, isDue(dueKey, id, existingDue) and existingDue or -1
    end
    -- a replace, or a value that is no record (isRecord) and so no message: overwritten. Its failure notes go first,
    -- so that a failure notes key Redis refuses leaves the message as it was
    foreign = refusedOn(failKey, FAIL_KIND, 'HDEL', failKey, id)
    if foreign then
      return foreign
    end
    if existingDue then
      removeDue(dueKey, id, existingDue)
      record = recordOf(envelope, now, dueAt, nextGeneration(existing))
      status = STATUS_REPLACED
    end
    rcall('HSET', msgKey, id, record)
  end
  return status, dueAt, makeDue(dueKey, readyKey, id, record, dueAt, now)
end

-- The due time of each message (nil: overflowing), in order
local messages = (#ARGV - 2) / 5
local dueTimes = {}
for k = 1, messages do
  dueTimes[k] = dueTimeOrNil(ARGV[5 * k], ARGV[5 * k + 1], now)
end

-- Before anything is written: a key Redis refuses after some of the call's writes would leave records stored, in
-- neither the due set nor the ready stream, of messages whose caller is told they failed; tried again, they would be
-- kept as they are and never delivered. The message hash needs no check: the call's first write is to it. The bucket
-- each due time goes to is looked up here and remembered for addDue (due-set.lua), which then looks it up no more
-- until the index changes: a single schedule, or a call whose due times all go to buckets with room, pays nothing
-- for the check.
local function foreignDueSlot(dueAt)
  local score = decimal(dueAt)
  local foreign, found = refusedOn(dueKey, INDEX_KIND, 'ZREVRANGEBYSCORE', dueKey, score, '-inf', 'LIMIT', '0', '2')
  if foreign then
    return foreign
  end
  -- a due time before every bucket goes to the first, or beside it (addDue)
  local name = found[1] or rcall('ZRANGE', dueKey, 0, 0)[1]
  local count
  foreign, count = foreignBucket(name)
  if not foreign and found[1] then
    rememberBucket(name, #found == 1, dueAt, score, count)
  end
  return foreign
end

local function foreignKey()
  local checked, dueNow = {}, false
  for k = 1, messages do
    local dueAt = dueTimes[k]
    if dueAt and dueAt <= now then
      dueNow = true
    elseif dueAt and not checked[dueAt] then
      checked[dueAt] = true
      local foreign = foreignDueSlot(dueAt)
      if foreign then
        return foreign
      end
    end
  end
  local foreign = dueNow and refusedOn(readyKey, READY_KIND, 'XLEN', readyKey)
  if not foreign and messages > 1 then
    -- a single message's failure notes are cleared before anything of it is written (schedule)
    foreign = refusedOn(failKey, FAIL_KIND, 'HLEN', failKey)
  end
  return foreign
end
local foreign = foreignKey()
if foreign then
  return foreign
end

local reply = {now}
local earliest, earliestBucket
for k = 1, messages do
  local i = 5 * k - 2
  local status, dueAt, firstBucket = schedule(ARGV[i], ARGV[i + 1], dueTimes[k], ARGV[i + 4])
  if type(status) == 'table' then
    -- refused before this message, the first, wrote anything (foreignKey checked the keys of the others)
    return status
  end
  reply[#reply + 1] = status
  reply[#reply + 1] = dueAt
  if stored(status) and dueAt > now and (not earliest or dueAt < earliest) then
    earliest, earliestBucket = dueAt, firstBucket
  end
end
if earliest then
  wakeIfEarliest(dueKey, earliest, earliestBucket, now, wake)
end

for i = 2, #reply, 2 do
  if stored(reply[i]) and reply[i + 1] <= now then
    rcall('PUBLISH', wake, WAKE_READY)
    break
  end
end
return reply
