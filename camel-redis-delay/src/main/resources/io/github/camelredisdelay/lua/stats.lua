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
  Counts a queue's messages by state, read in one atomic step.

  Includes: record.lua, due-set.lua, ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)

  Returns {scheduled, ready, inFlight, oldestOverdue, now}
    scheduled:     messages waiting for their due time (including failed ones waiting for a retry); counted in O(1)
                   as records less stream entries, so while a message's old version is ready or in flight and the
                   message was replaced, re-delayed or cancelled meanwhile, the count is one short until that
                   version's delivery is settled
    ready:         due messages no consumer has fetched yet, or fetched and handed back unrouted (hand-back.lua)
    inFlight:      messages fetched by a consumer and not yet acknowledged
    oldestOverdue: ms since the due time of the oldest message that is due but not yet fetched (or fetched and handed
                   back unrouted, see hand-back.lua, or fetched by a consumer that died or hangs, once its lease
                   expired: see firstExpiredLeases), 0 if none
    now:           Redis' time, epoch ms
]]
local now = redisNow()

local length = rcall('XLEN', readyKey)
-- each message is in the due set or in the ready stream, never in both
local scheduled = math.max(0, rcall('HLEN', msgKey) - length)
local inFlight = 0
local lastDelivered = '0-0'
if length > 0 then
  local pending, last = groupState()
  if pending then
    inFlight, lastDelivered = pending, last
  end
end

local oldestOverdue = 0
local earliest = earliestDue(dueKey)
if earliest and earliest <= now then
  oldestOverdue = now - earliest
end
-- the oldest entry not yet fetched, and the oldest handed back, which waits for a consumer as much,
local waiting = rcall('XRANGE', readyKey, '(' .. lastDelivered, '+', 'COUNT', 1)
local handedBack = 0
if inFlight > 0 then
  local firstHandedBack
  handedBack, firstHandedBack = handedBackEntries()
  -- and the oldest whose consumer died or hangs, which no consumer works on either (leaseExpired)
  local leases = firstExpiredLeases()
  leases[#leases + 1] = firstHandedBack
  for _, pending in ipairs(leases) do
    waiting[#waiting + 1] = rcall('XRANGE', readyKey, pending[1], pending[1])[1]
  end
end
for _, entry in ipairs(waiting) do
  local _, record = entryFields(entry[2])
  -- a record too short for its head (written behind the component's back) is delivered as corrupt; skip it here
  if isRecord(record) then
    oldestOverdue = math.max(oldestOverdue, now - dueOfRecord(record))
  end
end

return {scheduled, length - inFlight + handedBack, inFlight - handedBack, oldestOverdue, now}
