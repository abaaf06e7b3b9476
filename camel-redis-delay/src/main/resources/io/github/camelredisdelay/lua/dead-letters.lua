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
  dead-letter queue has fetched, oldest first. Changes nothing.

  Includes: ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the dead-letter queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] the most entries to list
  ARGV[4] list only entries after this stream entry id; "-": from the first one not fetched
  ARGV[5] a message id: look for its entry only, in one page of the stream per call, so that a long dead-letter queue
          never keeps Redis busy; "": any message

  Returns {entryId, messageId, record, entryId, messageId, record, ...}; when looking for a message id, its entry, or
  {lastEntryId, "", ""} when this page of the stream does not hold it and more may follow (call again after
  lastEntryId), or {} when the stream ends without it
]]
local limit, after, wanted = tonumber(ARGV[3]), ARGV[4], ARGV[5]
local PAGE = 500

local start = '-'
if after ~= '-' then
  start = '(' .. after
else
  -- entries up to the group's last delivered one are fetched (in flight) or gone: left to their consumer
  local _, lastDelivered = groupState()
  if lastDelivered and lastDelivered ~= '0-0' then
    start = '(' .. lastDelivered
  end
end

if wanted ~= '' then
  local entries = rcall('XRANGE', readyKey, start, '+', 'COUNT', PAGE)
  for _, entry in ipairs(entries) do
    local id, record = entryFields(entry[2])
    if id == wanted and record then
      return {entry[1], id, record}
    end
  end
  if #entries == PAGE then
    return {entries[PAGE][1], '', ''}
  end
  return {}
end

local found = {}
for _, entry in ipairs(rcall('XRANGE', readyKey, start, '+', 'COUNT', limit)) do
  local id, record = entryFields(entry[2])
  if id and record then
    found[#found + 1] = entry[1]
    found[#found + 1] = id
    found[#found + 1] = record
  end
end
return found
