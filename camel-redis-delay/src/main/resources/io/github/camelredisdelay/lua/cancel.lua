--[[
  Cancels a scheduled message. A message that is already ready or in flight is not touched: its delivery goes on.

  KEYS[1] due    ZSET   index of the due set (see due-set.lua)
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1] message id

  Returns 1 when the message was scheduled and is now removed, 0 when it is unknown, ready or in flight
]]
local dueKey, msgKey, failKey, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local record = rcall('HGET', msgKey, id)
if not record or not removeDue(dueKey, id, dueOfRecord(record)) then
  return 0
end
rcall('HDEL', msgKey, id)
rcall('HDEL', failKey, id)
return 1
