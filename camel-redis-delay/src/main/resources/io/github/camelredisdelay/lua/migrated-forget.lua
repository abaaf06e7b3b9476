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
  Clears the marks migrate.lua set, once the legacy copies of those messages are removed (legacy-remove.lua). The ids
  may be many more than one command takes (those of every batch a task that died left to clear).

  Includes: batches.lua, migration-fence.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua).
  ARGV[3] the legacy queue's name
  ARGV[4] the number of the caller's migration lease (legacy-claim.lua)
  ARGV[5] on: message ids

  Returns {cleared}: the number of marks cleared; or {-1, latest} when a task with the later lease number latest wrote
  to this shard (the caller's lease ran out: nothing is cleared).
]]
local admitted, latest = fenceAdmits(ARGV[3], ARGV[4])
if not admitted then
  return {-1, latest}
end
local ids = {}
for i = 5, #ARGV do
  ids[#ids + 1] = ARGV[i]
end
return {rcallEach('SREM', migratedKey, ids)}
