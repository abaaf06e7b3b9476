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

  Returns {} when the queue holds no message with this id, else
    {state, record, failure note or false, times delivered}
    state: "scheduled" (in the due set), "ready" (in the ready stream, not fetched yet, or handed back by a consumer
           that read it while stopping or suspended) or "inflight" (fetched by a consumer and not yet settled). A
           message in the stream is in flight when the entry of its stored version (record.lua) is among the group's
           pending ones and not handed back: the entry of a version it replaced may be in flight while it is ready.
           Only the pending entries (at most the consumers' fetched messages) are read to find it.
    times delivered: in flight, the deliveries of its stream entry (the one under way and those whose lease
           expired: Redis' delivery counter, as a consumer that takes the entry over counts them), else 0
]]
local id = ARGV[3]
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

local state, timesDelivered = 'ready', 0
-- no group yet (no consumer ever started): nothing is in flight
local pending = redis.pcall('XPENDING', readyKey, group)
if type(pending) == 'table' and not pending.err and pending[1] > 0 then
  -- every pending entry lies at or before the group's last delivered entry, which the summary's last id bounds
  local entries = rcall('XRANGE', readyKey, pending[2], pending[3])
  for _, entry in ipairs(entries) do
    local held = deliversStored(entry[2]) and lease(entry[1])
    if held and not handedBack(held) then
      state, timesDelivered = 'inflight', held[4]
    end
  end
end
return {state, record, note, timesDelivered}
