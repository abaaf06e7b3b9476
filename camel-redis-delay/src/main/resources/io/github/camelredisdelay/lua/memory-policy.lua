--[[
  Reads the eviction policy of the node that holds the queue, from INFO (CONFIG GET is not allowed in scripts).

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua); the keys route the
  call to the node that holds the queue

  Returns the maxmemory-policy, e.g. "noeviction" or "allkeys-lru"; "" when INFO does not say
]]
local info = rcall('INFO', 'memory')
return string.match(info, 'maxmemory_policy:([%w%-]+)') or ''
