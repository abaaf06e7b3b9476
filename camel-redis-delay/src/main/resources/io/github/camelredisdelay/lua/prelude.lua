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
  Prepended to every script of this folder, followed by wire.lua and the helper files the script names in its
  "Includes:" line (see LuaScript.java). Each script documents its own ARGV from ARGV[3] on and its return values.

  Every script is called with the same keys and common arguments, built once per queue (shard):
  KEYS[1] due    ZSET   index of the due set: bucket names by lower bound (see due-set.lua)
  KEYS[2] msg    HASH   message id -> record (see record.lua)
  KEYS[3] ready  STREAM due messages, ready or in flight, read through the consumer group
  KEYS[4] fail   HASH   message id -> failure note "<failed deliveries>:<last error>", only for messages that failed
  KEYS[5] migrated SET  ids written by a migration from an RDelayedQueue whose legacy copy may still exist (migrate.lua)
  KEYS[6] absent never written: while the queue's slot moves to another cluster master, Redis refuses a script one
                 of whose keys it lacks (TRYAGAIN), so no script runs while the due set's buckets, which scripts reach
                 without declaring them, may be on the other master
  ARGV[1] wake channel: announces a new earliest due time (the delay in ms), ready messages (WAKE_READY) and
          messages handed back (WAKE_HANDED_BACK)
  ARGV[2] consumer group
]]
local rcall = redis.call
local dueKey, msgKey, readyKey, failKey, migratedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local wake, group = ARGV[1], ARGV[2]

-- Whether this call already looked for the ready stream before adding to it (addReady).
local readyStreamSeen = false

-- Adds an entry of these fields to the ready stream and returns its id. The call that creates the stream creates the
-- consumer group with it, from the first entry, as ConsumerGroup.create does: out of memory under noeviction, Redis
-- refuses a consumer's own XGROUP CREATE, but not one in a script that already wrote (here the XADD), so messages made
-- ready then still reach a consumer that starts then, and their delivery frees their memory.
local function addReady(...)
  if not readyStreamSeen then
    readyStreamSeen = true
    if rcall('EXISTS', readyKey) == 0 then
      local entryId = rcall('XADD', readyKey, '*', ...)
      rcall('XGROUP', 'CREATE', readyKey, group, '0')
      return entryId
    end
  end
  return rcall('XADD', readyKey, '*', ...)
end

-- Due times are integers held in Lua numbers (doubles): exact up to 2^53 - 1.
local MAX_DUE = 9007199254740991

-- Redis' clock in epoch ms, the one clock every node agrees on; and the same instant in epoch µs.
local function redisNow()
  local time = rcall('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

-- The absolute due time for mode "delay" (amount is ms from now) or "at" (amount is epoch ms; a time before now is
-- now, so that overdue ages and lateness count from when the message could first be delivered); nil beyond MAX_DUE.
local function dueTimeOrNil(mode, amount, now)
  local dueAt = tonumber(amount)
  if mode == 'delay' then
    dueAt = now + dueAt
  elseif dueAt < now then
    dueAt = now
  end
  if dueAt > MAX_DUE then
    return nil
  end
  return dueAt
end
