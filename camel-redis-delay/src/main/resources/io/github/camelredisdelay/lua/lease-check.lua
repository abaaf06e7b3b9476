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
  Checks a delivery that is about to be settled outside a script (dead-lettering writes to another queue first): whether
  the consumer still holds its entry (no other consumer took its lease over), whether the stored message is still the
  version it delivered (see record.lua), and whether a purge under way removes it instead. Runs on the master, as every
  script that may write does: a replica may not show the take-over or settlement yet.

  Includes: record.lua, ready-stream.lua, purge-mark.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] stream entry id
  ARGV[4] message id
  ARGV[5] the consumer that was delivered the message
  ARGV[6] version delivered (record.lua), or "any" for a delivery whose entry could not be read: current whatever is
          stored, so that it is dead-lettered

  Returns {holds, current, purged, gone}: 1 or 0 each; purged: a purge under way started after the stored message was
  scheduled (purge-mark.lua), so the delivery is removed rather than dead-lettered; gone: the consumer does not hold
  the entry, and Redis lost the delivery (see gone in ready-stream.lua)
]]
local held = holds(ARGV[3], ARGV[5]) and 1 or 0
local record = rcall('HGET', msgKey, ARGV[4])
local current = (ARGV[6] == 'any' or isVersion(record, ARGV[6])) and 1 or 0
local purged = purgedOnFailure(record, redisNow()) and 1 or 0
local lost = (held == 0 and gone(ARGV[3], ARGV[4])) and 1 or 0
return {held, current, purged, lost}
