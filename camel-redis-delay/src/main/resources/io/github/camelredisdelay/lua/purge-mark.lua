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
  The mark of a purge under way (purge.lua): a hash beside the queue's keys, field "start" = Redis' time (epoch ms)
  when the purge started, field "until" = when the mark lapses (epoch ms). Every purge call moves "until"
  PURGE_MARK_TTL_MS on; the call that finishes the purge removes the mark, and a purge given up lapses by itself (a
  hash, not a string with an expiry: the scripts' ACL grants hash commands). While the mark holds, retry.lua removes a
  failed message that was scheduled before the purge started instead of scheduling it again: wherever a retry put it,
  the purge's walk of the due set may already have passed.
]]
local purgeMarkKey = string.sub(msgKey, 1, -4) .. 'purge'
local PURGE_MARK_TTL_MS = 60000

-- When the purge under way started (epoch ms), or nil: none, or one given up.
local function purgeStartOrNil(now)
  local mark = rcall('HMGET', purgeMarkKey, 'start', 'until')
  if mark[1] and tonumber(mark[2]) >= now then
    return tonumber(mark[1])
  end
  return nil
end
