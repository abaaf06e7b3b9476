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
  Removes a stopping consumer from the consumer group, unless it still holds messages: those must stay pending
  so that another consumer takes them over after the visibility timeout.

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the consumer

  Returns 1 when the consumer was removed, 0 when it still holds messages or is unknown
]]
local consumer = ARGV[3]
if rcall('EXISTS', readyKey) == 0 then
  return 0
end
local held = redis.pcall('XPENDING', readyKey, group, '-', '+', 1, consumer)
if type(held) ~= 'table' or held.err or #held > 0 then
  return 0
end
rcall('XGROUP', 'DELCONSUMER', readyKey, group, consumer)
return 1
