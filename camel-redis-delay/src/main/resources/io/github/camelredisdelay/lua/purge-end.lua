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
  Ends a purge that failed part-way (a call of purge.lua failed after its first call marked the purge under way), so
  that its mark does not outlive it: while the mark holds, retry.lua and lease-check.lua remove, rather than retry or
  dead-letter, a failed message scheduled before the purge started, and the messages the failed purge did not reach
  are no purge's to remove. A purge whose JVM died still leaves its mark to lapse (purge-mark.lua).

  Includes: purge-mark.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)

  Returns 1
]]
endPurge()
return 1
