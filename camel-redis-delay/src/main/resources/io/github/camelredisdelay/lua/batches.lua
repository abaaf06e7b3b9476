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
  Helpers for the scripts that handle many messages per call (see LuaScript.java); they use prelude.lua.
]]

-- Most items passed to one variadic command: Lua's unpack is bounded.
local CHUNK = 1000

-- Runs command on key (then group, when given: XACK's) with the items of list as its trailing arguments, CHUNK at a
-- time: one call for many items instead of one each (every redis.call costs far more than the work of a small
-- command). Returns the sum of the replies, which for the commands used here are counts.
local function rcallEach(command, key, list, group)
  local total = 0
  for first = 1, #list, CHUNK do
    local last = math.min(first + CHUNK - 1, #list)
    if group then
      total = total + rcall(command, key, group, unpack(list, first, last))
    else
      total = total + rcall(command, key, unpack(list, first, last))
    end
  end
  return total
end

-- The values of the fields in list of the hash at key, in list order (false for a missing field), CHUNK at a time.
local function hashValues(key, list)
  local values = {}
  for first = 1, #list, CHUNK do
    local part = rcall('HMGET', key, unpack(list, first, math.min(first + CHUNK - 1, #list)))
    for j = 1, #part do
      values[#values + 1] = part[j]
    end
  end
  return values
end
