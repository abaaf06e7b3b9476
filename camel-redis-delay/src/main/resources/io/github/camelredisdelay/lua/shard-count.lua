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
  Records and confirms how many shards the queue is spread over, in the hash "<keyPrefix>:{<queue>}:shards" beside
  shard 0's keys: field "count", field "seen", Redis' time (epoch ms) an endpoint with that count last recorded or
  confirmed it (each running endpoint does every few seconds: QueueGuard.java), and field "since", when that count's
  use began (epoch ms; endpoints that confirm it learn it, and carry it over when they record the count again after
  the record was lost). An endpoint with another count is found out: its messages would go to, or be read from, shards
  the others do not use.

  KEYS, ARGV[1] and ARGV[2]: shard 0's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] this endpoint's shard count
  ARGV[4] "1" to record it in place of another count (the caller found that count's shards empty), else "0"
  ARGV[5] ms: another count is kept while an endpoint with it confirmed it within this time
  ARGV[6] "1" to record it where no count is recorded, "0" not to (the caller saw another count in use within ARGV[5]
          ms: the record was lost with Redis' data, and the endpoints that used that count record it again)
  ARGV[7] when this endpoint's count's use began (its "since"), "" before the endpoint confirmed it
  ARGV[8] Redis' time this endpoint last recorded or confirmed its count, "" before it did. When that is within ARGV[5]
          ms and another count is recorded whose use began after it, the record was lost with Redis' data and made
          again by an endpoint that did not see this count in use (reported, see Returns)
  ARGV[9] "1" to take such a record back (the caller found the other count's shards that are not its own empty):
          this endpoint records its count again, with its "since", which the other endpoint then finds earlier than
          its own last confirmation, and gives way

  First checks that the server has the commands the component needs beyond those of every Redis with streams: a
  Redis before 6.2 has no XAUTOCLAIM (with which a consumer takes over the messages of one that stopped or crashed), and
  a server may rename a command away. Such a server is refused (QueueGuard.java) rather than used in part.

  Returns {the recorded count, ms since an endpoint with it last confirmed it, when its use began, Redis' time now,
  1 when that record was made again after it was lost (ARGV[8]) and ARGV[9] is not "1", else 0}: {ARGV[3], 0, ...}
  when this endpoint's count is the recorded one now (confirmed, recorded where none was, in place of one nobody
  confirmed within ARGV[5], or taken back); {0, 0, 0, now, 0} when none is recorded and ARGV[6] is "0"; {0, 0, 0, 0,
  0, the command the server lacks, the server as INFO names it, "Valkey 8.0.1" or "Redis 7.0.15" ("" when INFO is not
  allowed)} when it lacks one, recording nothing
]]
-- Valkey also reports a redis_version, that of the Redis it is compatible with (Valkey 8.0.1: 7.2.4)
local function serverOf(info)
  local valkey = string.match(info, 'valkey_version:([%w%.%-]+)')
  if valkey then
    return 'Valkey ' .. valkey
  end
  local redis = string.match(info, 'redis_version:([%w%.%-]+)')
  return redis and 'Redis ' .. redis or ''
end

-- the group never exists: a server with the command answers NOGROUP (or NOPERM, for a user not allowed it: reported
-- where the command is used) and changes nothing; one without answers "Unknown Redis command called from (Lua)
-- script" (Redis), "Unknown command called from script" (Valkey)
local probe = redis.pcall('XAUTOCLAIM', readyKey, 'camel-redis-delay:no-such-group', 'command-check', 0, '0-0', 'COUNT', 1)
local refusal = type(probe) == 'table' and probe.err
if refusal and not string.find(refusal, '^NOGROUP') and not string.find(refusal, '^NOPERM')
    and string.find(string.lower(refusal), 'unknown', 1, true) then
  local info = redis.pcall('INFO', 'server')
  return {0, 0, 0, 0, 0, 'XAUTOCLAIM', type(info) == 'string' and serverOf(info) or ''}
end
local countKey = string.sub(msgKey, 1, -4) .. 'shards'
local now = redisNow()
local inUseWithin = tonumber(ARGV[5])
local recorded = rcall('HMGET', countKey, 'count', 'seen', 'since')
local unconfirmedFor = now - (tonumber(recorded[2]) or 0)
local ownSince, ownLast = tonumber(ARGV[7]), tonumber(ARGV[8])
-- this endpoint used its count moments ago: its use goes on
local inUse = ownSince and ownLast and now - ownLast <= inUseWithin
if not recorded[1] and ARGV[6] ~= '1' then
  return {0, 0, 0, now, 0}
end
if recorded[1] == ARGV[3] then
  -- a record made before "since" was gets it now
  local since = tonumber(recorded[3]) or now
  rcall('HSET', countKey, 'seen', now, 'since', since)
  return {tonumber(ARGV[3]), 0, since, now, 0}
end
-- another count, whose use began after this endpoint last confirmed its own: recorded where the record was lost
local lostRecordMadeAgain = inUse and recorded[1] and (tonumber(recorded[3]) or 0) > ownLast
if lostRecordMadeAgain and ARGV[9] ~= '1' then
  -- the other count's shards may hold messages this endpoint's do not: the caller looks before it takes it back
  return {tonumber(recorded[1]), unconfirmedFor, tonumber(recorded[3]) or 0, now, 1}
end
if not recorded[1] or lostRecordMadeAgain or (ARGV[4] == '1' and unconfirmedFor > inUseWithin) then
  -- the use this endpoint's count had goes on where the record was lost; a count that replaces another begins its own
  local since = inUse and (not recorded[1] or lostRecordMadeAgain) and ownSince or now
  rcall('HSET', countKey, 'count', ARGV[3], 'seen', now, 'since', since)
  return {tonumber(ARGV[3]), 0, since, now, 0}
end
return {tonumber(recorded[1]), unconfirmedFor, tonumber(recorded[3]) or 0, now, 0}
