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
  Takes over messages whose lease expired: delivered to a consumer that neither acknowledged them nor extended
  the lease within the visibility timeout (it crashed or hangs). Entries deleted meanwhile are dropped from the
  pending list, and so are expired entries of a message version that was superseded (replaced or re-delayed while in
  flight, see record.lua) or already settled: the stored version is delivered on its own. Also forgets consumers of
  the group that hold no message and have not been seen for a long time (their process is gone), so the group does
  not grow with every restart.

  Messages a stopping or suspended consumer handed back (hand-back.lua) are taken over first, from the pending list
  of the group's consumer HANDED_BACK_CONSUMER, wherever they are in the group's: never routed, each is delivered as a
  read would deliver it, whatever version of its id is stored now (the old version of a replace is delivered). Then, with room left in the count,
  one entry whose lease expired, at most: one call looks at a bounded stretch of the group's pending list (at most ten
  times the count) from the cursor the previous call returned, so expired leases behind many live ones are reached in
  later calls. An expired lease may be the caller's own, of an exchange it still runs (its extensions did not reach
  Redis within the visibility timeout): it is taken over and counted like any other, and the caller, which knows its
  running exchanges, takes the count back (own-take-over.lua).

  Includes: record.lua, ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the consumer taking them over
  ARGV[4] minimum idle time, ms: the visibility timeout of the consumer taking them over. Consumers' names end in
          "~<their visibility timeout in ms>" (ConsumerNames.java): while any consumer holding messages has a longer
          one, that longer one applies, so that no lease still being extended is taken over
  ARGV[5] the entry id to look from: 0-0 at first, then the cursor the previous call returned
  ARGV[6] at most this many entries
  ARGV[7] idle time (ms) after which a consumer holding no message is forgotten

  Returns {cursor, {{entry id, {field, value, ...}, times delivered including this one}, ...}, handed back, more}
    cursor: where the next call looks from; 0-0 when this call reached the end of the pending list; the cursor given
            when a full page of handed-back entries was looked at
    handed back: how many of the entries taken over a stopping or suspended consumer handed back (hand-back.lua),
                 never routed, rather than let their lease expire; they come first
    more: 1 when a full page of handed-back entries was looked at (some may have been deleted meanwhile), so more may
          wait and the group's pending list was not looked at; else 0
]]
local consumer = ARGV[3]

-- Whether the entry with these fields delivers the stored version of its message. An entry whose fields cannot be
-- read counts as current: it is delivered, and dead-lettered as corrupt.
local function isCurrent(fields)
  local id, record = entryFields(fields)
  if not id or not isRecord(record) then
    return true
  end
  return isVersion(rcall('HGET', msgKey, id), versionOf(record))
end

-- The longest lease of the consumers holding messages; consumers holding none that were not seen for long are forgotten
local minIdle = tonumber(ARGV[4])
-- (no stream yet: XAUTOCLAIM below answers NOGROUP, on which the caller creates the group)
for _, consumerInfo in ipairs(groupConsumers()) do
  local name, pending, idle = consumerInfo.name, consumerInfo.pending, consumerInfo.idle
  if pending > 0 then
    local lease = visibilityOf(name)
    if lease and lease > minIdle then
      minIdle = lease
    end
  elseif idle > tonumber(ARGV[7]) and name ~= consumer then
    rcall('XGROUP', 'DELCONSUMER', readyKey, group, name)
  end
end

local start, count = ARGV[5], tonumber(ARGV[6])
local result = {}

-- Delivers a claimed entry to this consumer.
local function deliver(entry)
  local entryId = entry[1]
  result[#result + 1] = {entryId, entry[2], rcall('XPENDING', readyKey, group, entryId, entryId, 1)[1][4]}
end

-- Delivers a claimed entry whose lease expired, unless it is of a superseded or settled version: that one is dropped
-- (its delivery failed, and a superseded version is not retried). Whether it was delivered.
local function takeOver(entry)
  if isCurrent(entry[2]) then
    deliver(entry)
    return true
  end
  rcall('XACK', readyKey, group, entry[1])
  rcall('XDEL', readyKey, entry[1])
  return false
end

local handedBackPage = rcall('XPENDING', readyKey, group, '-', '+', count, HANDED_BACK_CONSUMER)
for _, pending in ipairs(handedBackPage) do
  -- counted as a delivery: hand-back.lua took back the one its consumer's read counted
  local entry = rcall('XCLAIM', readyKey, group, consumer, 0, pending[1])[1]
  if entry then
    -- never routed: delivered as a read would deliver it, also when its id was replaced or cancelled meanwhile
    deliver(entry)
  else
    -- deleted while pending: Redis 7.0 dropped it from the pending list, 6.2 keeps it (now this consumer's)
    rcall('XACK', readyKey, group, pending[1])
  end
end
local handedBackCount = #result
if #handedBackPage == count then
  -- more may wait: the next call takes them, before any entry whose lease expired, which XAUTOCLAIM would take too
  -- (handed-back entries look idle for ever) but count as expired
  return {start, result, handedBackCount, 1}
end

-- At most one entry whose lease expired: its consumer died with it, or hangs, maybe because of it. Taken over with
-- others behind it, a message that kills every node routing it would count a delivery for each of them, never routed,
-- on every node it kills, and take them to the dead-letter queue with it. One XAUTOCLAIM of COUNT 1 looks at ten
-- entries at most, so up to the count of them look at the stretch one call of the whole count would.
local rest = count - #result
local cursor = start
local deleted = false
local taken = false
for _ = 1, rest do
  local claimed = rcall('XAUTOCLAIM', readyKey, group, consumer, minIdle, cursor, 'COUNT', 1)
  cursor = claimed[1]
  for _, entry in ipairs(claimed[2]) do
    if entry then
      taken = takeOver(entry)
    else
      -- Redis 6.2 returns an entry deleted while pending as nil, without its id, and keeps it pending (7.0 drops it)
      deleted = true
    end
  end
  if taken or cursor == '0-0' then
    break
  end
end
if deleted then
  -- the deleted entries are now this consumer's, in the stretch just looked at (at most ten times the count long):
  -- those the stream lacks
  local stop = cursor == '0-0' and '+' or '(' .. cursor
  for _, pending in ipairs(rcall('XPENDING', readyKey, group, start, stop, 10 * rest, consumer)) do
    if #rcall('XRANGE', readyKey, pending[1], pending[1]) == 0 then
      rcall('XACK', readyKey, group, pending[1])
    end
  end
end
return {cursor, result, handedBackCount, 0}
