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
  Makes scheduled dead letters ready for a redrive, by id: those a consumer of the dead-letter queue failed and
  scheduled again (its retrySchedule) that the redrive read as its queue's (scheduled-page.lua, then their headers);
  another queue's (a dead-letter queue that several queues share), made ready, would reach a consumer of the
  dead-letter queue before its retry. A dead letter is left as it is when it is no longer in the due set or its record
  is another version by now. The stream entry keeps the record with its due time, for which redrive-return.lua puts it
  back when the redrive does not move it, and carries its failure note as transfer.lua's do. Consumers are not woken:
  the redrive moves these itself.

  Includes: record.lua, due-set.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3..] two per dead letter: message id, version its record held when listed (record.lua)

  Returns three per dead letter made ready, in the order given: stream entry id, message id, record
]]
local made = {}
for i = 3, #ARGV, 2 do
  local id, version = ARGV[i], ARGV[i + 1]
  local record = rcall('HGET', msgKey, id)
  if isVersion(record, version) and removeDue(dueKey, id, dueOfRecord(record)) then
    local failure = rcall('HGET', failKey, id)
    local entryId
    if failure then
      entryId = addReady(FIELD_ID, id, FIELD_RECORD, record, FIELD_FAILURE, failure)
    else
      entryId = addReady(FIELD_ID, id, FIELD_RECORD, record)
    end
    made[#made + 1] = entryId
    made[#made + 1] = id
    made[#made + 1] = record
  end
end
return made
