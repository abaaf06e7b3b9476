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
  Lists the ids under which a dead-letter queue (shard) holds later dead letters of a message id: <id>#<stream entry>
  or <id>#<stream entry>.<n> (see DeadLetters.java), which may lie on any shard of the dead-letter queue. Reads one
  page of the record hash per call (HSCAN ... COUNT STREAM_PAGE, ready-stream.lua), so that a large dead-letter queue
  never keeps Redis busy; a peek calls again with the cursor returned until it is "0". Ids a message has of its own
  that only start with <id># are listed too: the caller tells them apart by the dead letter's headers. Changes
  nothing, but runs on the master: a cursor holds only on the server that returned it.

  Includes: ready-stream.lua

  KEYS, ARGV[1] and ARGV[2]: the dead-letter queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] message id
  ARGV[4] HSCAN cursor: "0" on the first call, else the one the previous call returned

  Returns {cursor, id, id, ...}: the cursor to pass as ARGV[4] on the next call ("0": the whole hash was read), then
  the ids of this page that start with <id># (a page may list an id twice, as HSCAN may)
]]
local id, cursor = ARGV[3], ARGV[4]
-- the id taken literally by HSCAN's glob pattern: its *, ?, [, ] and \ escaped
local pattern = string.gsub(id, '[%*%?%[%]\\]', '\\%0') .. '#*'
local page = rcall('HSCAN', msgKey, cursor, 'MATCH', pattern, 'COUNT', STREAM_PAGE)
local found = {page[1]}
for i = 1, #page[2], 2 do
  found[#found + 1] = page[2][i]
end
return found
