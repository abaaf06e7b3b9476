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
  Extends the leases a consumer still holds: resets the idle time of those of the given entries that are pending to
  it, so no other consumer takes them over, without counting a delivery. An entry another consumer took over
  meanwhile (this one did not extend it within the visibility timeout) is left to that consumer: a lease is never
  taken back. Entries settled meanwhile are left alone too, and so are entries handed back meanwhile (hand-back.lua):
  an extension the lease timer sent before the hand-back may reach Redis after it.

  Includes: batches.lua, ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the consumer
  ARGV[4], ARGV[5], ... the stream entry ids of its leases

  Returns the number of leases extended
]]
local consumer = ARGV[3]
local held = {}
for i = 4, #ARGV do
  local pending = lease(ARGV[i])
  if pending ~= nil and pending[2] == consumer then
    held[#held + 1] = ARGV[i]
  end
end
for first = 1, #held, CHUNK do
  local ids = {unpack(held, first, math.min(first + CHUNK - 1, #held))}
  ids[#ids + 1] = 'JUSTID'
  rcall('XCLAIM', readyKey, group, consumer, 0, unpack(ids))
end
return #held
