--[[
  Reads Redis' clock, on the node that holds the queue.

  KEYS[1] any key of the queue (routes the call to its node)

  Returns the time in epoch ms
]]
return redisNow()
