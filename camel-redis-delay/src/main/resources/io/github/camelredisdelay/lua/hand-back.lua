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
  Hands back entries a stopping consumer read but never routed (its stop ran out of time first): their lease ends
  now, and the delivery is not counted, so the next consumer to look for expired leases takes them over at once, as
  if this one had never read them. Entries another consumer took over meanwhile are left alone. When any was handed
  back, the wake channel says so (WAKE_HANDED_BACK): the other consumers look for expired leases at their next read
  instead of at their next periodic look, and their waiting readers read. The entries go to the group's consumer
  HANDED_BACK_CONSUMER until one takes them over, so that statistics and dead-letter listings find them in its own
  pending list.

  Includes: ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the consumer that read them
  ARGV[4..] the entry ids

  Returns the number of entries handed back
]]
local consumer = ARGV[3]
local handedBack = 0
for i = 4, #ARGV do
  local entryId = ARGV[i]
  local pending = rcall('XPENDING', readyKey, group, entryId, entryId, 1, consumer)
  if #pending == 1 then
    -- TIME 0: idle since ever, so that its lease counts as expired whatever the visibility timeout of the one who
    -- looks, also where a look reads the group's pending list (reclaim.lua); JUSTID: the claim itself does not count a delivery; RETRYCOUNT takes back the one this
    -- read counted
    rcall('XCLAIM', readyKey, group, HANDED_BACK_CONSUMER, 0, entryId, 'TIME', 0, 'RETRYCOUNT', pending[1][4] - 1,
      'JUSTID')
    handedBack = handedBack + 1
  end
end
if handedBack > 0 then
  rcall('PUBLISH', wake, WAKE_HANDED_BACK)
end
return handedBack
