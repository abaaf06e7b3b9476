--[[
  Removes a stopping consumer from the consumer group, unless it still holds messages: those must stay pending
  so that another consumer takes them over after the visibility timeout.

  KEYS[1] ready  STREAM ready messages

  ARGV[1] consumer group
  ARGV[2] the consumer

  Returns 1 when the consumer was removed, 0 when it still holds messages or is unknown
]]
local readyKey, group, consumer = KEYS[1], ARGV[1], ARGV[2]
if rcall('EXISTS', readyKey) == 0 then
  return 0
end
local held = redis.pcall('XPENDING', readyKey, group, '-', '+', 1, consumer)
if type(held) ~= 'table' or held.err or #held > 0 then
  return 0
end
rcall('XGROUP', 'DELCONSUMER', readyKey, group, consumer)
return 1
