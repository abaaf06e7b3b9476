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
  Lists a page of the scheduled messages of a queue (shard) with their records: for a redrive of all, which reads from
  each dead letter's headers whether it is its queue's before it makes it ready (redrive-ready.lua). Reads one page of
  the record hash per call (HSCAN ... COUNT SCAN_PAGE), so that a large dead-letter queue never keeps Redis busy; the
  redrive calls again with the cursor returned until it is "0". Changes nothing, but runs on the master: a cursor holds
  only on the server that returned it.

  Includes: record.lua, due-set.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] HSCAN cursor: "0" on the first call, else the one the previous call returned

  Returns {cursor, id, record, id, record, ...}: the cursor to pass as ARGV[3] on the next call ("0": the whole hash
  was read), then the messages of this page that are in the due set (a page may list one twice, as HSCAN may)
]]
local SCAN_PAGE = 100
local page = rcall('HSCAN', msgKey, ARGV[3], 'COUNT', SCAN_PAGE)
local found = {page[1]}
for i = 1, #page[2], 2 do
  local id, record = page[2][i], page[2][i + 1]
  if isRecord(record) and isDue(dueKey, id, dueOfRecord(record)) then
    found[#found + 1] = id
    found[#found + 1] = record
  end
end
return found
