--[[
  Removes migrated messages from the migration's pending set on the legacy queue's slot, once migrate.lua has
  written them to the new queue. Not a queue script: prelude.lua is not prepended (see legacy-claim.lua).

  KEYS: those of legacy-claim.lua; only KEYS[4], the pending set, is used
  ARGV[1] on: members to remove

  Returns the number of members left in the pending set.
]]
redis.call('ZREM', KEYS[4], unpack(ARGV))
return redis.call('ZCARD', KEYS[4])
