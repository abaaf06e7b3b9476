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

  The ids of the removed messages go to KEYS[7] in the same step, so that their marks on the queue are cleared even
  if the caller dies before it clears them: the next claim without the caller's word returns them.

  KEYS: those of legacy-claim.lua; KEYS[4], the pending set, KEYS[6], the lease, KEYS[7], the ids to unmark, and
  KEYS[9], the queue migrated into, are used
  ARGV[1]          the calling task's owner token: nothing is removed unless it still holds the lease
  ARGV[2]          n, the number of messages
  ARGV[3 .. n + 2] members to remove
  ARGV[n + 3 .. 2n + 2] the migrated messages' ids, in the same order
  ARGV[2n + 3]     ms KEYS[9] is kept from now: the batch it was kept for good for (legacy-claim.lua) is removed

  Returns the number of members left in the pending set, or -1 when the caller no longer holds the lease.
]]
if redis.call('GET', KEYS[6]) ~= ARGV[1] then
  return -1
end
local n = tonumber(ARGV[2])
redis.call('SADD', KEYS[7], unpack(ARGV, n + 3, 2 * n + 2))
redis.call('ZREM', KEYS[4], unpack(ARGV, 3, n + 2))
local into = redis.call('GET', KEYS[9])
if into then
  redis.call('SET', KEYS[9], into, 'PX', ARGV[2 * n + 3])
end
return redis.call('ZCARD', KEYS[4])
