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
  The mark of the purges under way (purge.lua): a hash beside the queue's keys, field "start" = Redis' time (epoch ms)
  when the latest of them started, field "runs" = how many are under way, field "until" = when the mark lapses (epoch
  ms). Every purge call moves "until" PURGE_MARK_TTL_MS on; the call that finishes the last purge under way removes the
  mark, and purges given up lapse by themselves (a hash, not a string with an expiry: the scripts' ACL grants hash
  commands). While the mark holds, retry.lua removes a failed message that was scheduled before the latest purge
  started instead of scheduling it again (wherever a retry put it, that purge's walk of the due set may already have
  passed), and lease-check.lua tells a consumer to remove such a message instead of dead-lettering it.
]]
local purgeMarkKey = string.sub(msgKey, 1, -4) .. 'purge'
local PURGE_MARK_TTL_MS = 60000

-- When the latest purge under way started (epoch ms), or nil: none, or only ones given up.
local function purgeStartOrNil(now)
  local mark = rcall('HMGET', purgeMarkKey, 'start', 'until')
  if mark[1] and tonumber(mark[2]) >= now then
    return tonumber(mark[1])
  end
  return nil
end

-- Whether a purge under way removes, rather than retries or dead-letters, a failed delivery of this stored value: it
-- started after the message was scheduled. Not a value that is no record (none, or one written behind the
-- component's back), which tells no time.
local function purgedOnFailure(record, now)
  local purgeStart = isRecord(record) and purgeStartOrNil(now)
  return purgeStart and scheduledAtOf(record) <= purgeStart or false
end

-- A purge starts now: one more under way (the first, when the mark lapsed), and the latest start.
local function beginPurge(now)
  local mark = rcall('HMGET', purgeMarkKey, 'until', 'runs')
  local runs = mark[1] and tonumber(mark[1]) >= now and tonumber(mark[2] or '0') or 0
  rcall('HSET', purgeMarkKey, 'start', now, 'runs', runs + 1)
end

-- A purge that began is done: the last one under way removes the mark.
local function endPurge()
  local runs = tonumber(rcall('HGET', purgeMarkKey, 'runs') or '0') - 1
  if runs > 0 then
    rcall('HSET', purgeMarkKey, 'runs', runs)
  else
    rcall('HDEL', purgeMarkKey, 'start', 'runs', 'until')
  end
end
