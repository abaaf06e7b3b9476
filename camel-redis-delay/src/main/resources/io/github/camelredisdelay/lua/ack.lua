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
  Acknowledges delivered messages: removes each from the ready stream and, while it is still the version that was
  delivered, its record and its failure note (see acknowledge() in batches.lua).

  Includes: record.lua, batches.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3], ARGV[4], ARGV[5]   stream entry id, message id, generation delivered ("*": any); more triples may follow

  Returns the number of messages acknowledged
]]
local entryIds, messageIds, generations = {}, {}, {}
for i = 3, #ARGV, 3 do
  entryIds[#entryIds + 1] = ARGV[i]
  messageIds[#messageIds + 1] = ARGV[i + 1]
  generations[#generations + 1] = ARGV[i + 2]
end
return acknowledge(readyKey, msgKey, failKey, group, entryIds, messageIds, generations)
