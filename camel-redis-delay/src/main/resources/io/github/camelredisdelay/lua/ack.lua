--[[
  Acknowledges delivered messages: removes each from the ready stream, its record and its failure note.
  A stream entry that is no longer pending (another consumer already acknowledged it) is left alone, so a
  late acknowledgement never deletes a newer message that reuses the id.

  KEYS[1] ready  STREAM ready messages
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1]            consumer group
  ARGV[2], ARGV[3]   stream entry id, message id; more pairs may follow

  Returns the number of messages acknowledged
]]
local readyKey, msgKey, failKey = KEYS[1], KEYS[2], KEYS[3]
local group = ARGV[1]

local acked = 0
for i = 2, #ARGV, 2 do
  if rcall('XACK', readyKey, group, ARGV[i]) == 1 then
    rcall('XDEL', readyKey, ARGV[i])
    rcall('HDEL', msgKey, ARGV[i + 1])
    rcall('HDEL', failKey, ARGV[i + 1])
    acked = acked + 1
  end
end
return acked
