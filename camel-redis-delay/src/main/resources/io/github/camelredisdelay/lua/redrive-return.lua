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
  Puts dead letters that a redrive made ready before their due time and then did not move back into the due set, each
  for the due time given: those a consumer of the dead-letter queue failed and scheduled again (its retrySchedule),
  which a redrive makes ready first (redrive-ready.lua) and then leaves, as the queue holds their id again. That
  consumer gets them when their retry is due, not at once. An entry is left as it is when it is gone, a consumer
  fetched it, a redrive holds a claim on it (redrive-claim.lua), its record is another version by now, or its due
  time has come.

  Includes: record.lua, due-set.lua, ready-stream.lua, redrive-claims.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua). The wake channel is
  told the delay (ms) to a new earliest due time.
  ARGV[3..] four per dead letter: stream entry id, message id, version the entry holds (record.lua), due time (epoch
            ms of Redis' clock) it goes back for

  Returns the number of dead letters put back
]]
local now = redisNow()
local returned = 0
for i = 3, #ARGV, 4 do
  local entryId, id, version, dueAt = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local claimed = select(2, claimOf(rcall('HGET', redriveClaimsKey, entryId))) > now
  local pending = groupCall('XPENDING', readyKey, group, entryId, entryId, 1)
  local record = rcall('HGET', msgKey, id)
  if dueAt > now and not claimed and not (pending and #pending > 0) and isVersion(record, version)
      and #rcall('XRANGE', readyKey, entryId, entryId) == 1 then
    rcall('XDEL', readyKey, entryId)
    rcall('HSET', msgKey, id, withDue(record, dueAt))
    wakeIfEarliest(dueKey, dueAt, addDue(dueKey, id, dueAt), now, wake)
    returned = returned + 1
  end
end
return returned
