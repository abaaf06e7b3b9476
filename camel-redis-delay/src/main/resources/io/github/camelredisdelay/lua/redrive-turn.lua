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
  Gives the redrives from one dead-letter queue their turns, one at a time: a redrive (of all, with a limit or by id)
  puts back on schedule the dead letters it lists ready before their due time and does not move, which would take from
  another queue's redrive running at once (a dead-letter queue that several queues share) those it made ready to move.
  The turn is a claim on the whole dead-letter queue: field "*" of the claims hash (redrive-claims.lua), "<redrive's
  token> <expiry>", on the dead-letter queue's first shard. Its holder moves the expiry on as it goes and gives the
  turn up at its end; a turn whose holder died lapses.

  Includes: redrive-claims.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the redrive's token
  ARGV[4] ms the turn lasts from now on; 0 to give it up

  Returns 0 when the redrive holds the turn now (taken, or its own moved on) or gave it up; else the ms until the turn
  another redrive holds lapses
]]
local token, lasts = ARGV[3], tonumber(ARGV[4])
local now = redisNow()
local holder, expiry = claimOf(rcall('HGET', redriveClaimsKey, TURN))
if holder and holder ~= token and expiry > now then
  return expiry - now
end
if lasts > 0 then
  rcall('HSET', redriveClaimsKey, TURN, token .. ' ' .. (now + lasts))
elseif holder == token then
  rcall('HDEL', redriveClaimsKey, TURN)
end
return 0
