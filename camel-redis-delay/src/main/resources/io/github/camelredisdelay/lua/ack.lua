--[[
  Acknowledges delivered messages: removes each from the ready stream and, while it is still the version that was
  delivered, its record and its failure note (see acknowledge() in batches.lua).

  Includes: record.lua, batches.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3], ARGV[4], ARGV[5]   stream entry id, message id, generation delivered ("*": any); more triples may follow

  Returns the number of messages acknowledged
]]
local entryIds, messageIds, generations = {}, {}, {}
for i = 3, #ARGV, 3 do
  entryIds[#entryIds + 1] = ARGV[i]
  messageIds[#messageIds + 1] = ARGV[i + 1]
  generations[#generations + 1] = ARGV[i + 2]
end
return acknowledge(readyKey, msgKey, failKey, group, entryIds, messageIds, generations)
