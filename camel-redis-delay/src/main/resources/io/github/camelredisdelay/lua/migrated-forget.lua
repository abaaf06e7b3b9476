--[[
  Clears the marks migrate.lua set, once the legacy copies of those messages are removed (legacy-remove.lua).

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua).
  ARGV[3] on: message ids

  Returns the number of marks cleared.
]]
return rcall('SREM', migratedKey, unpack(ARGV, 3))
