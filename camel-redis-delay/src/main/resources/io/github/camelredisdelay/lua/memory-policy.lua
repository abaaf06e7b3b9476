--[[
  Reads the eviction policy of the node that holds the queue, from INFO (CONFIG GET is not allowed in scripts).

  KEYS[1] any key of the queue (routes the call to its node)

  Returns the maxmemory-policy, e.g. "noeviction" or "allkeys-lru"; "" when INFO does not say
]]
local info = rcall('INFO', 'memory')
return string.match(info, 'maxmemory_policy:([%w%-]+)') or ''
