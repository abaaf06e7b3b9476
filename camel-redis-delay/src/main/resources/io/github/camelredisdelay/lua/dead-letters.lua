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
  Lists messages of a dead-letter queue to move back (redrive): entries of its ready stream that no consumer of the
  dead-letter queue works on (not fetched yet, or fetched and handed back unrouted by a stopping consumer, see
  hand-back.lua, or fetched by one that let the lease expire: it died or hangs), oldest first, up to a last entry
  that the listing's first call fixes (one listing none, see ARGV[3], may fix it before the first page), so that
  entries added while a redrive pages through the stream (dead letters it moved that failed again) are not listed.
  Changes nothing.

  Includes: ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the dead-letter queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the most entries to list; 0 with no message id (ARGV[6] ""): none, the call only fixes the listing's last
          entry (a redrive does so on every shard of a sharded dead-letter queue before it moves anything)
  ARGV[4] list only entries after this stream entry id; "-": from the first one not fetched
  ARGV[5] list no entry after this stream entry id; "+": the stream's newest entry (the listing's first call)
  ARGV[6] a message id: look for its entries only, under that id or as <id>#<stream entry> or
          <id>#<stream entry>.<n> (a later dead letter of the id, see DeadLetters.java), in one page of the stream (STREAM_PAGE entries, ready-stream.lua) per call,
          so that a long dead-letter queue never keeps Redis busy; "": any message

  Returns {last, entryId, messageId, record, entryId, messageId, record, ...}, last being the entry id to pass as
  ARGV[5] on the listing's next call ("0-0" when the stream is empty); when looking for a message id, {last} followed
  by its next entry, or by {lastEntryId, "", ""} when this page of the stream holds none and more may follow (call
  again after lastEntryId), or by nothing when the listing ends without one
]]
local limit, after, last, wanted = tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]

if last == '+' then
  last = newestEntryId()
end
if limit == 0 and wanted == '' then
  return {last}
end

local _, lastDelivered = groupState()
lastDelivered = lastDelivered or '0-0'


-- At most count leases between low and high, in entry order, that no consumer works on: those handed back, and those
-- that expired (leaseExpired), each consumer's looked for with its own visibility timeout
local function unheld(low, high, count)
  local leases = {}
  for _, consumerInfo in ipairs(groupConsumers()) do
    local name, pending = consumerInfo.name, consumerInfo.pending
    local visibility = visibilityOf(name)
    local found = {}
    if pending > 0 and name == HANDED_BACK_CONSUMER then
      found = rcall('XPENDING', readyKey, group, low, high, count, name)
    elseif pending > 0 and visibility then
      found = rcall('XPENDING', readyKey, group, 'IDLE', visibility, low, high, count, name)
    end
    for _, lease in ipairs(found) do
      leases[#leases + 1] = lease
    end
  end
  table.sort(leases, function(a, b) return entryBefore(a[1], b[1]) end)
  return {unpack(leases, 1, math.min(count, #leases))}
end

-- At most count entries after the one with id from ("-": from the first), up to last, that no consumer works on: up
-- to the group's last delivered entry only those handed back or whose lease expired (the others are in flight), then
-- every entry
local function listable(from, count)
  local entries = {}
  if lastDelivered ~= '0-0' and (from == '-' or entryBefore(from, lastDelivered)) then
    local high = entryBefore(last, lastDelivered) and last or lastDelivered
    local low = from == '-' and '-' or '(' .. from
    for _, pending in ipairs(unheld(low, high, count)) do
      entries[#entries + 1] = rcall('XRANGE', readyKey, pending[1], pending[1])[1]
    end
    from = lastDelivered
  end
  if #entries < count then
    for _, entry in ipairs(rcall('XRANGE', readyKey, from == '-' and '-' or '(' .. from, last, 'COUNT',
        count - #entries)) do
      entries[#entries + 1] = entry
    end
  end
  return entries
end

local start = after == '-' and '-' or after

if wanted ~= '' then
  local suffixed = wanted .. '#'
  local entries = listable(start, STREAM_PAGE)
  for _, entry in ipairs(entries) do
    local id, record = entryFields(entry[2])
    if id and record and (id == wanted or string.sub(id, 1, #suffixed) == suffixed) then
      return {last, entry[1], id, record}
    end
  end
  if #entries == STREAM_PAGE then
    return {last, entries[STREAM_PAGE][1], '', ''}
  end
  return {last}
end

local found = {last}
for _, entry in ipairs(listable(start, limit)) do
  local id, record = entryFields(entry[2])
  if id and record then
    found[#found + 1] = entry[1]
    found[#found + 1] = id
    found[#found + 1] = record
  end
end
return found
