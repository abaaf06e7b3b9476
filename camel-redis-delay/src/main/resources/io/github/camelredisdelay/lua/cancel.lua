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
  Cancels a scheduled message. A message that is already ready or in flight is not touched: its delivery goes on.

  Includes: record.lua, due-set.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] message id

  Returns 1 when the message was scheduled and is now removed, 0 when it is unknown, ready or in flight
]]
local id = ARGV[3]
local record = rcall('HGET', msgKey, id)
if not isRecord(record) or not removeDue(dueKey, id, dueOfRecord(record)) then
  return 0
end
rcall('HDEL', msgKey, id)
rcall('HDEL', failKey, id)
return 1
