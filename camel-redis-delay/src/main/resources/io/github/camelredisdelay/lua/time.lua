--[[
  Reads Redis' clock, on the node that holds the queue.

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua); the keys route the
  call to the node that holds the queue

  Returns the time in epoch ms
]]
return redisNow()
