--[[
  Cancels a scheduled message. A message that is already ready or in flight is not touched: its delivery goes on.

  KEYS[1] due    ZSET   message id -> due time
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1] message id

  Returns 1 when the message was scheduled and is now removed, 0 when it is unknown, ready or in flight
]]
local id = ARGV[1]
if rcall('ZREM', KEYS[1], id) == 0 then
  return 0
end
rcall('HDEL', KEYS[2], id)
rcall('HDEL', KEYS[3], id)
return 1
