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
  Writes messages migrated from a Redisson RDelayedQueue (internal/MigrationTask) with their original due times, and
  marks each id in KEYS[5] until migrated-forget.lua clears it, after legacy-remove.lua removed the legacy copy.
  The mark is what makes a repeated batch (after a crash between this write and that remove) harmless even when
  the message was delivered and acknowledged in between: a marked id is never written again.

  Includes: record.lua, due-set.lua, migration-fence.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua).
  ARGV[3] the legacy queue's name
  ARGV[4] the number of the caller's migration lease (legacy-claim.lua)
  ARGV[5] on, three per message:
  ARGV[i]     message id, derived from the legacy member
  ARGV[i + 1] envelope (binary, opaque here)
  ARGV[i + 2] due time, epoch ms (kept below 2^53)

  Returns {-1, latest} when a task with the later lease number latest wrote to this shard (the caller's lease ran
  out: nothing is written), else {now, status, status, ...}, a status per message in order (wire.lua):
    STATUS_SCHEDULED: stored
    STATUS_KEPT:      written before (marked), or a message with this id exists: nothing changed
]]

local admitted, latest = fenceAdmits(ARGV[3], ARGV[4])
if not admitted then
  return {-1, latest}
end
local now, nowMicros = redisNow()
local reply = {now}
local earliest, earliestBucket
local readied = false
for i = 5, #ARGV, 3 do
  local id = ARGV[i]
  local status = STATUS_KEPT
  if rcall('SADD', migratedKey, id) == 1 then
    local dueAt = math.min(tonumber(ARGV[i + 2]), MAX_DUE)
    local record = recordOf(ARGV[i + 1], now, dueAt, freshGeneration(nowMicros))
    if rcall('HSETNX', msgKey, id, record) == 1 then
      status = STATUS_SCHEDULED
      local firstBucket = makeDue(dueKey, readyKey, id, record, dueAt, now)
      if dueAt <= now then
        readied = true
      elseif not earliest or dueAt < earliest then
        earliest, earliestBucket = dueAt, firstBucket
      end
    end
  end
  reply[#reply + 1] = status
end
if earliest then
  wakeIfEarliest(dueKey, earliest, earliestBucket, now, wake)
end
if readied then
  rcall('PUBLISH', wake, WAKE_READY)
end
return reply
