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
  Records how many shards the queue is spread over, in the hash "<keyPrefix>:{<queue>}:shards" beside shard 0's keys
  (field "count"), so that an endpoint with another shards option is found out: its messages would go to, or be read
  from, shards the others do not use (ShardCountCheck.java).

  KEYS, ARGV[1] and ARGV[2]: shard 0's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] this endpoint's shard count
  ARGV[4] "1" to record it even when another count is recorded (the caller found the queue empty), else "0"

  Returns the recorded count: ARGV[3] when none was recorded, or when ARGV[4] is "1"
]]
local countKey = string.sub(msgKey, 1, -4) .. 'shards'
local recorded = rcall('HGET', countKey, 'count')
if not recorded or ARGV[4] == '1' then
  rcall('HSET', countKey, 'count', ARGV[3])
  return tonumber(ARGV[3])
end
return tonumber(recorded)
