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
  Removes a message that was copied elsewhere (a redriven dead letter) from the ready stream, with its record and
  failure note while they are still the version the entry holds. An entry a consumer has fetched meanwhile is left
  to it: the copy then is a duplicate, never a loss. One a stopping consumer handed back unrouted (hand-back.lua), or
  whose lease expired (its consumer died or hangs, ready-stream.lua's leaseExpired), is no consumer's: removed.

  Includes: record.lua, ready-stream.lua, redrive-claims.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] stream entry id
  ARGV[4] message id
  ARGV[5] version the entry holds (record.lua)

  Removes the entry's redrive claim (redrive-claim.lua) whatever the outcome: the redrive that calls this has copied the
  dead letter, and an entry gone or in flight is no redrive's to claim any more (its consumer settles it without
  knowing of claims).

  Returns DISCARD_REMOVED (wire.lua) when the entry was removed; DISCARD_IN_FLIGHT when it is in flight, or gone while
  its message is still stored in that version (a consumer failed it and its retry scheduled it again); DISCARD_GONE
  when it is gone with its message (purged, or acknowledged by a consumer)
]]
local entryId, id, version = ARGV[3], ARGV[4], ARGV[5]
rcall('HDEL', redriveClaimsKey, entryId)
if #rcall('XRANGE', readyKey, entryId, entryId) == 0 then
  return isVersion(rcall('HGET', msgKey, id), version) and DISCARD_IN_FLIGHT or DISCARD_GONE
end
local pending = groupCall('XPENDING', readyKey, group, entryId, entryId, 1)
if pending and #pending > 0 then
  if inFlight(pending[1]) then
    return DISCARD_IN_FLIGHT
  end
  rcall('XACK', readyKey, group, entryId)
end
rcall('XDEL', readyKey, entryId)
if isVersion(rcall('HGET', msgKey, id), version) then
  rcall('HDEL', msgKey, id)
  rcall('HDEL', failKey, id)
end
return DISCARD_REMOVED
