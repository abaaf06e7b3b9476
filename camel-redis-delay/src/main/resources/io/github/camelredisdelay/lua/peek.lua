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
  Reads one message by id without changing anything: its record, its state and its failure note.

  Includes: record.lua, due-set.lua, ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] message id
  ARGV[4] where to look for the message's entry in the ready stream: "" on the first call (from the stored version's
          due time: its entry was written when it was due, so not before), else the entry id a previous call returned
          (after it)

  Returns {} when the queue holds no message with this id, else
    {state, record, failure note or false, times delivered}
    state: "scheduled" (in the due set), "ready" (in the ready stream, not fetched yet, or handed back by a consumer
           that read it while stopping or suspended) or "inflight" (fetched by a consumer and not yet settled). A
           message in the stream is in flight when the entry of its stored version (record.lua) is among the group's
           pending ones and not handed back: the entry of a version it replaced may be in flight while it is ready.
           One call reads at most STREAM_PAGE entries of the stream (ready-stream.lua), from the stored version's due
           time on, so that a long stream never keeps Redis busy
    times delivered: in flight, the deliveries of its stream entry (the one under way and those whose lease
           expired: Redis' delivery counter, as a consumer that takes the entry over counts them), else 0
  or {"", entry id} when the page of the stream this call read does not hold the stored version's entry and more
  entries follow: call again with that entry id as ARGV[4]. Entries written after a call lie after every entry it
  read, so a later call misses no entry of whatever version is stored by then
]]
local id, after = ARGV[3], ARGV[4]
local record = rcall('HGET', msgKey, id)
if not isRecord(record) then
  return {}
end
local note = rcall('HGET', failKey, id)
if isDue(dueKey, id, dueOfRecord(record)) then
  return {'scheduled', record, note, 0}
end

-- Whether a stream entry's fields deliver the stored version of this message.
local function deliversStored(fields)
  local messageId, entryRecord = entryFields(fields)
  return messageId == id and isRecord(entryRecord) and isVersion(record, versionOf(entryRecord))
end

local from = after == '' and decimal(dueOfRecord(record)) or '(' .. after
local entries = rcall('XRANGE', readyKey, from, '+', 'COUNT', STREAM_PAGE)
for _, entry in ipairs(entries) do
  if deliversStored(entry[2]) then
    -- no group yet (no consumer ever started): nothing is in flight
    local held = groupCall('XPENDING', readyKey, group, entry[1], entry[1], 1)
    held = held and held[1]
    if held and not handedBack(held) then
      return {'inflight', record, note, held[4]}
    end
    return {'ready', record, note, 0}
  end
end
if #entries == STREAM_PAGE then
  return {'', entries[#entries][1]}
end
return {'ready', record, note, 0}
