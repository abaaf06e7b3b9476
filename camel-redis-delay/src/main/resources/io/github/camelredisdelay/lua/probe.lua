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
  Checks that the node holding the queue takes the queue's writes now, for the health checks. Redis refuses the write
  below as it would refuse a schedule: on a replica (READONLY), out of memory under noeviction (OOM), with fewer
  replicas than min-replicas-to-write (NOREPLICAS), for a user without write rights (NOPERM). It adds a member no due
  set holds and removes it again: nothing changes, yet both reach the replication stream, so that a wait for replicas
  after it (syncReplicas) tells whether a schedule's write would reach them. Runs on the master, as every script that
  may write does. First it checks that each of the queue's keys holds what the queue keeps there, or nothing
  (key-kinds.lua): Redis' own refusal of a write to a key of another type names no key; the refusal here names it. So
  does the first bucket of the due set (due-set.lua), which every transfer reads first: one of another type fails
  them all, and no message due there or later is delivered.

  Includes: due-set.lua, key-kinds.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)

  Returns Redis' time in epoch ms; a WRONGTYPE error naming the key and what the queue keeps there when a key, or the
  first bucket of the due set, holds a value of another type
]]
local foreign = foreignValue() or foreignBucket(rcall('ZRANGE', dueKey, 0, 0)[1])
if foreign then
  return foreign
end
if rcall('ZADD', dueKey, 'NX', 0, '') == 1 then
  rcall('ZREM', dueKey, '')
end
return redisNow()
