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
  may write does. First it checks that each of the queue's keys holds what the queue keeps there, or nothing: a value
  of another type written under its name (by another application or by hand) fails every write of the queue to it
  with Redis' WRONGTYPE, which names no key; the refusal here names it.

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)

  Returns Redis' time in epoch ms; a WRONGTYPE error naming the key and what the queue keeps there when a key holds
  a value of another type
]]
-- each key with a command that answers in O(1) for what the queue keeps there, WRONGTYPE for anything else
local kept = {
  {dueKey, 'ZCARD', 'the index of its due set, a sorted set'},
  {msgKey, 'HLEN', 'its messages, a hash'},
  {readyKey, 'XLEN', 'its ready messages, a stream'},
  {failKey, 'HLEN', 'its failure notes, a hash'},
}
for _, key in ipairs(kept) do
  local reply = redis.pcall(key[2], key[1])
  if type(reply) == 'table' and reply.err and string.find(reply.err, '^WRONGTYPE') then
    return redis.error_reply('WRONGTYPE key ' .. key[1] .. ' holds a value of another type than ' .. key[3]
      .. ': every write of the queue to it fails until that value is removed')
  end
end
if rcall('ZADD', dueKey, 'NX', 0, '') == 1 then
  rcall('ZREM', dueKey, '')
end
return redisNow()
