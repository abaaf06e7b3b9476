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
  Lists messages of a queue for browsing, without changing anything and without reading the whole queue: at most
  limit entries of the ready stream in flight, at most limit handed back by a stopping consumer, at most limit ready
  ones and, in due order, at most limit scheduled messages from the first buckets.

  Includes: record.lua, due-set.lua, ready-stream.lua, batches.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] limit: the most messages of each kind listed
  ARGV[4] "due": stream entries oldest first (in flight, then ready), then scheduled messages; "newest": at most
          limit stream entries newest first only
          (for a dead-letter queue, whose messages are all ready)

  Returns {state, id, record, failure note or false, times delivered, ...}; state is "inflight" (fetched by a
  consumer, up to the group's last delivered entry, and not handed back: see handedBack), "ready" or "scheduled";
  times delivered is, in flight, the deliveries of the stream entry (Redis' delivery counter: the one under way and
  those whose lease expired), else 0
]]
local limit, order = tonumber(ARGV[3]), ARGV[4]
local found = {}

-- stream entry ids "<ms>-<seq>" as two numbers, for comparing
local function entryKey(entryId)
  local dash = string.find(entryId, '-', 1, true)
  return tonumber(string.sub(entryId, 1, dash - 1)), tonumber(string.sub(entryId, dash + 1))
end

local lastMs, lastSeq = -1, -1
local _, lastDelivered = groupState()
if lastDelivered then
  lastMs, lastSeq = entryKey(lastDelivered)
end

local entries
if order == 'newest' then
  entries = rcall('XREVRANGE', readyKey, '+', '-', 'COUNT', limit)
elseif lastDelivered then
  -- at most limit of each: a backlog in flight does not hide the ready entries behind it
  entries = rcall('XRANGE', readyKey, '-', lastDelivered, 'COUNT', limit)
  -- nor the entries a stopping consumer handed back (ready, though fetched once) behind more in flight than that
  local listed = {}
  for _, entry in ipairs(entries) do
    listed[entry[1]] = true
  end
  for _, pending in ipairs(rcall('XPENDING', readyKey, group, '-', '+', limit, HANDED_BACK_CONSUMER)) do
    if not listed[pending[1]] then
      local entry = rcall('XRANGE', readyKey, pending[1], pending[1])[1]
      if entry then
        entries[#entries + 1] = entry
      end
    end
  end
  for _, entry in ipairs(rcall('XRANGE', readyKey, '(' .. lastDelivered, '+', 'COUNT', limit)) do
    entries[#entries + 1] = entry
  end
else
  entries = rcall('XRANGE', readyKey, '-', '+', 'COUNT', limit)
end
for _, entry in ipairs(entries) do
  local id, record, note = entryFields(entry[2])
  if id and isRecord(record) then
    local ms, seq = entryKey(entry[1])
    local fetched = ms < lastMs or (ms == lastMs and seq <= lastSeq)
    local held = fetched and lease(entry[1])
    local inFlight = fetched and not (held and handedBack(held))
    found[#found + 1] = inFlight and 'inflight' or 'ready'
    found[#found + 1] = id
    found[#found + 1] = record
    found[#found + 1] = note
    found[#found + 1] = inFlight and held and held[4] or 0
  end
end

if order == 'due' then
  local ids = {}
  for _, name in ipairs(rcall('ZRANGE', dueKey, 0, limit - 1)) do
    for _, id in ipairs(rcall('ZRANGE', bucketKey(dueKey, name), 0, limit - #ids - 1)) do
      ids[#ids + 1] = id
    end
    if #ids >= limit then
      break
    end
  end
  if #ids > 0 then
    local records = hashValues(msgKey, ids)
    local notes = hashValues(failKey, ids)
    for i, id in ipairs(ids) do
      if isRecord(records[i]) then
        found[#found + 1] = 'scheduled'
        found[#found + 1] = id
        found[#found + 1] = records[i]
        found[#found + 1] = notes[i]
        found[#found + 1] = 0
      end
    end
  end
end
return found
