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
  Gives a scheduled message a new due time, computed from Redis' own clock. A message that is already ready or in
  flight is not touched. A due time in the past leaves the message to the transfer task, woken at once.

  Includes: record.lua, due-set.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua). The wake channel is
  told the delay (ms) to a new earliest due time.
  ARGV[3] message id
  ARGV[4] "delay": ARGV[5] is a delay in ms from now; "at": ARGV[5] is an absolute due time in epoch ms
  ARGV[5] the delay or due time, a non-negative integer

  Returns {status, dueAt, now}, with the statuses of schedule.lua (wire.lua):
    STATUS_SCHEDULED:    rescheduled for dueAt
    STATUS_KEPT:         the message is unknown, ready or in flight; dueAt is -1
    STATUS_DUE_OVERFLOW: the due time is beyond 2^53 - 1 ms; nothing changed, dueAt is -1
]]
local id = ARGV[3]

local now = redisNow()
local dueAt = dueTimeOrNil(ARGV[4], ARGV[5], now)
if not dueAt then
  return {STATUS_DUE_OVERFLOW, -1, now}
end
local record = rcall('HGET', msgKey, id)
if not isRecord(record) or not removeDue(dueKey, id, dueOfRecord(record)) then
  return {STATUS_KEPT, -1, now}
end

local firstBucket = addDue(dueKey, id, dueAt)
rcall('HSET', msgKey, id, withDue(record, dueAt))
wakeIfEarliest(dueKey, dueAt, firstBucket, now, wake)
return {STATUS_SCHEDULED, dueAt, now}
