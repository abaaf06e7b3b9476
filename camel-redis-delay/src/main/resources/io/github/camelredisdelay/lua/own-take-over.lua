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
  Takes back the delivery that a consumer's look for expired leases (reclaim.lua) counted when it took over the
  lease of one of its own exchanges that still runs: its lease timer could not extend the lease within the visibility
  timeout (Redis unreachable or paused that long, a long GC pause), so the look took it as expired, renewing it and
  counting a delivery that never happened. Left counted, it would show as one delivery more to the consumer that takes
  the message over should this one die before the exchange settles, and bring maxDeliveries one delivery closer. An
  entry that another consumer took over since, or that was settled or counted again since, is left alone, so a call
  the client sends twice takes back one delivery.

  Includes: ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the consumer
  ARGV[4], ARGV[5], ... per entry its id, then the times it was delivered that the take-over reported (reclaim.lua),
                        including the take-over

  Returns the number of entries whose take-over was taken back
]]
local consumer = ARGV[3]
local uncounted = 0
for i = 4, #ARGV - 1, 2 do
  local entryId, counted = ARGV[i], tonumber(ARGV[i + 1])
  local pending = lease(entryId)
  if pending ~= nil and pending[2] == consumer and pending[4] == counted then
    -- JUSTID: the claim itself counts no delivery; like the take-over, it renews the lease
    rcall('XCLAIM', readyKey, group, consumer, 0, entryId, 'RETRYCOUNT', counted - 1, 'JUSTID')
    uncounted = uncounted + 1
  end
end
return uncounted
