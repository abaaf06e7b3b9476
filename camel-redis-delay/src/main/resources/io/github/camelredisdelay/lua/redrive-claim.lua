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
  Claims dead letters (entries of this dead-letter queue's ready stream) for one redrive before it copies them back to
  their queue, or gives a claim up when the copy was not made: another redrive running at once leaves a claimed dead
  letter, and one already removed, rather than copy it a second time, which no removal would undo once the first copy
  was delivered. A claim expires, so that the dead letters of a redrive that died after claiming are left to a later
  one; each claiming call removes the claims that expired, whose dead letters may be gone since. A dead letter a
  consumer of the dead-letter queue fetched since the listing is not claimed: that consumer settles it (discard.lua
  would leave it to it, and removes the claim of the redrive that copied it).

  Includes: ready-stream.lua, redrive-claims.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the redrive's token
  ARGV[4] ms a claim lasts
  ARGV[5] "1" to claim, "0" to give up the redrive's own claims
  ARGV[6..] stream entry ids

  Returns, per entry id in order, 1 when the redrive holds the claim now (taken, or its own already) or gave it up; 0
  when the entry is gone, in flight or another redrive holds it
]]
local token, claiming = ARGV[3], ARGV[5] == '1'

-- Whether a consumer of the dead-letter queue works on the entry now (it was listed while no consumer did)
local function fetchedSinceListing(entryId)
  local pending = groupCall('XPENDING', readyKey, group, entryId, entryId, 1)
  return pending ~= nil and #pending > 0 and inFlight(pending[1])
end

local now = redisNow()
if claiming then
  -- lapsed claims hold nothing: those of redrives that died or failed, whose dead letters may be gone since (HSCAN,
  -- which the component's ACL grants; the hash holds the claims of the redrives running now, and these)
  local lapsed, cursor = {}, '0'
  repeat
    local page = rcall('HSCAN', redriveClaimsKey, cursor, 'COUNT', 100)
    cursor = page[1]
    for i = 1, #page[2], 2 do
      if select(2, claimOf(page[2][i + 1])) <= now then
        lapsed[#lapsed + 1] = page[2][i]
      end
    end
  until cursor == '0'
  for _, entryId in ipairs(lapsed) do
    rcall('HDEL', redriveClaimsKey, entryId)
  end
end
local held = {}
for i = 6, #ARGV do
  local entryId = ARGV[i]
  local holder, expiry = claimOf(rcall('HGET', redriveClaimsKey, entryId))
  if not claiming then
    if holder == token then
      rcall('HDEL', redriveClaimsKey, entryId)
    end
    held[#held + 1] = 1
  elseif #rcall('XRANGE', readyKey, entryId, entryId) == 0 then
    -- moved by another redrive (or consumed) since this one listed it
    held[#held + 1] = 0
  elseif holder and holder ~= token and expiry > now then
    held[#held + 1] = 0
  elseif fetchedSinceListing(entryId) then
    held[#held + 1] = 0
  else
    rcall('HSET', redriveClaimsKey, entryId, token .. ' ' .. (now + tonumber(ARGV[4])))
    held[#held + 1] = 1
  end
end
return held
