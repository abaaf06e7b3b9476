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
  Puts a failed delivery back on schedule: acknowledges its stream entry, makes the message due again after a
  delay and records how often it failed and why. Nothing happens when the entry is no longer pending to the consumer
  that failed it (its lease expired and another consumer took it over, or the message was settled meanwhile). When a newer version of the message was stored meanwhile (a replace,
  or a re-delay from this very delivery: see record.lua), the failed delivery is only acknowledged and the newer
  version keeps its own schedule: the explicit re-delay wins. While a purge runs (purge-mark.lua), a message scheduled
  before it started is removed instead, with its failure note.

  Includes: record.lua, due-set.lua, ready-stream.lua, purge-mark.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua). The wake channel is
  told the delay (ms) to a new earliest due time.
  ARGV[3] stream entry id of the failed delivery
  ARGV[4] message id
  ARGV[5] delay before the next delivery, ms; one that would pass the largest due time (2^53 - 1 ms) ends there, so the
          message stays scheduled
  ARGV[6] failure note: "<failed deliveries>:<last error>"
  ARGV[7] version that was delivered (see record.lua)
  ARGV[8] the consumer that was delivered the message

  Returns its status (in wire.lua): RETRY_SCHEDULED when rescheduled, RETRY_NOT_PENDING when the entry was no longer
  pending to that consumer, RETRY_GONE when besides Redis lost the delivery (see gone in ready-stream.lua: flushed,
  restored from a snapshot older than the delivery), RETRY_SUPERSEDED when a newer version of the message is stored,
  RETRY_PURGED when a purge under way removed it
]]
local entryId, id = ARGV[3], ARGV[4]

if not holds(entryId, ARGV[8]) then
  if gone(entryId, id) then
    return RETRY_GONE
  end
  return RETRY_NOT_PENDING
end
rcall('XACK', readyKey, group, entryId)
rcall('XDEL', readyKey, entryId)
local record = rcall('HGET', msgKey, id)
if not isVersion(record, ARGV[7]) then
  return RETRY_SUPERSEDED
end
local now = redisNow()
if purgedOnFailure(record, now) then
  rcall('HDEL', msgKey, id)
  rcall('HDEL', failKey, id)
  return RETRY_PURGED
end
local dueAt = dueTimeOrNil('delay', ARGV[5], now) or MAX_DUE
local firstBucket = addDue(dueKey, id, dueAt)
rcall('HSET', msgKey, id, withDue(record, dueAt))
rcall('HSET', failKey, id, ARGV[6])
wakeIfEarliest(dueKey, dueAt, firstBucket, now, wake)
return RETRY_SCHEDULED
