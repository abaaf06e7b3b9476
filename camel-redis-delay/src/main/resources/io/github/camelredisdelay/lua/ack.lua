--[[
  Acknowledges delivered messages: removes each from the ready stream, its record and its failure note
  (see acknowledge() in batches.lua).

  KEYS[1] ready  STREAM ready messages
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1]            consumer group
  ARGV[2], ARGV[3]   stream entry id, message id; more pairs may follow

  Returns the number of messages acknowledged
]]
return acknowledge(KEYS[1], KEYS[2], KEYS[3], ARGV[1], 2, (#ARGV - 1) / 2)
