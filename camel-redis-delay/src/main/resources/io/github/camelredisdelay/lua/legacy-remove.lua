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
  Removes migrated messages from the migration's pending set on the legacy queue's slot, once migrate.lua has
  written them to the new queue. Not a queue script: prelude.lua is not prepended (see legacy-claim.lua).

  KEYS: those of legacy-claim.lua; only KEYS[4], the pending set, is used
  ARGV[1] on: members to remove

  Returns the number of members left in the pending set.
]]
redis.call('ZREM', KEYS[4], unpack(ARGV))
return redis.call('ZCARD', KEYS[4])
