--[[
  Acknowledges delivered messages: removes each from the ready stream and, while it is still the version that was
  delivered, its record and its failure note (see acknowledge() in batches.lua).

  KEYS[1] ready  STREAM ready messages
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1]                     consumer group
  ARGV[2], ARGV[3], ARGV[4]   stream entry id, message id, generation delivered ("*": any); more triples may follow

  Returns the number of messages acknowledged
]]
local entryIds, messageIds, generations = {}, {}, {}
for i = 2, #ARGV, 3 do
  entryIds[#entryIds + 1] = ARGV[i]
  messageIds[#messageIds + 1] = ARGV[i + 1]
  generations[#generations + 1] = ARGV[i + 2]
end
return acknowledge(KEYS[1], KEYS[2], KEYS[3], ARGV[1], entryIds, messageIds, generations)
