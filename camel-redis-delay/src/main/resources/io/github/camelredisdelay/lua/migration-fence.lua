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
  Helpers for the scripts that write for a migration from a Redisson RDelayedQueue (see LuaScript.java); they use
  prelude.lua.
]]

-- Whether a task of the migration from legacy queue `legacy` holding lease number `fence` (legacy-claim.lua) may still
-- write to this shard: no task with a later lease has written to it. A task whose lease ran out while it stalled
-- would otherwise write a batch again after the one that took over moved it, and the marks that stop a repeated batch
-- were cleared. Keeps the latest number per legacy queue in the hash "<migrated>:fence". Returns the verdict and the
-- latest number, which a refused task that does hold the lease (its counter was lost) passes to its next claim.
local function fenceAdmits(legacy, fence)
  local fenceKey = migratedKey .. ':fence'
  local latest = tonumber(rcall('HGET', fenceKey, legacy) or '0')
  local mine = tonumber(fence)
  if mine < latest then
    return false, latest
  end
  if mine > latest then
    rcall('HSET', fenceKey, legacy, fence)
  end
  return true, mine
end
