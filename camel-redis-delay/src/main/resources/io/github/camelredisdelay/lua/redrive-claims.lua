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
  The claims of redrives on the dead letters of a dead-letter queue (redrive-claim.lua), so that redrives running at
  once do not each copy one back: a hash beside the queue's keys, field = stream entry id, value = "<redrive's
  token> <expiry, Redis' epoch ms>"; field "*" is the claim on the whole dead-letter queue, the turn of the redrive
  running now (redrive-turn.lua). discard.lua removes a claim once the redrive copied its dead letter,
  redrive-claim.lua the claims that lapsed, purge.lua the claims with the queue (not a turn held).
]]
local redriveClaimsKey = string.sub(msgKey, 1, -4) .. 'redrive'
local TURN = '*'

-- The token of the redrive holding a claim and its expiry, of the claim's value (nil and 0 when there is none)
local function claimOf(value)
  if not value then
    return nil, 0
  end
  local holder, expiry = string.match(value, '^(%S+) (%d+)$')
  return holder, tonumber(expiry) or 0
end
