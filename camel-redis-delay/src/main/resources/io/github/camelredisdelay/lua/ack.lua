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
  Acknowledges delivered messages: removes each from the ready stream and, while it is still the version that was
  delivered, its record and its failure note.

  Includes: record.lua, batches.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3], ARGV[4], ARGV[5]   stream entry id, message id, version delivered (record.lua; "*" for a delivery whose
                              record is no record); more triples may follow

  Returns the number of messages acknowledged
]]
-- Acknowledges deliveries: entryIds[i] is the stream entry that delivered version versions[i] (see record.lua)
-- of message messageIds[i]. Removes each entry from the stream and, while the stored message is still the version
-- that was delivered, the message and its failure note; a newer version (a replace or re-delay of an id in flight)
-- stays. An entry that is no longer pending (another consumer already acknowledged it) is left alone, so a late
-- acknowledgement never deletes a newer message that reuses the id. Returns how many were acknowledged. One XACK
-- takes them all; when it acknowledges fewer than given, those it did are the ones still in the stream: every script
-- that acknowledges an entry deletes it in the same call, so an entry that was delivered and is no longer pending is
-- gone.
local function acknowledge(entryIds, messageIds, versions)
  local acked = rcallEach('XACK', readyKey, entryIds, group)
  if acked < #entryIds then
    local stillThere, theirMessages, theirVersions = {}, {}, {}
    for i = 1, #entryIds do
      if #rcall('XRANGE', readyKey, entryIds[i], entryIds[i]) > 0 then
        stillThere[#stillThere + 1] = entryIds[i]
        theirMessages[#theirMessages + 1] = messageIds[i]
        theirVersions[#theirVersions + 1] = versions[i]
      end
    end
    entryIds, messageIds, versions = stillThere, theirMessages, theirVersions
  end
  rcallEach('XDEL', readyKey, entryIds)
  local records, settled = hashValues(msgKey, messageIds), {}
  for i = 1, #messageIds do
    if isVersion(records[i], versions[i]) then
      settled[#settled + 1] = messageIds[i]
    end
  end
  rcallEach('HDEL', msgKey, settled)
  rcallEach('HDEL', failKey, settled)
  return #entryIds
end

local entryIds, messageIds, versions = {}, {}, {}
for i = 3, #ARGV, 3 do
  entryIds[#entryIds + 1] = ARGV[i]
  messageIds[#messageIds + 1] = ARGV[i + 1]
  versions[#versions + 1] = ARGV[i + 2]
end
return acknowledge(entryIds, messageIds, versions)
