--[[
  Gives a scheduled message a new due time, computed from Redis' own clock. A message that is already ready or in
  flight is not touched. A due time in the past leaves the message to the transfer task, woken at once.

  KEYS[1] due    ZSET   index of the due set (see due-set.lua)
  KEYS[2] msg    HASH   message id -> record, which holds the due time too

  ARGV[1] message id
  ARGV[2] "delay": ARGV[3] is a delay in ms from now; "at": ARGV[3] is an absolute due time in epoch ms
  ARGV[3] the delay or due time, a non-negative integer
  ARGV[4] wake channel, told the delay (ms) to a new earliest due time

  Returns {status, dueAt, now}, with the status numbers of schedule.lua:
    status 1: rescheduled for dueAt
    status 0: the message is unknown, ready or in flight; dueAt is -1
    status 3: the due time is beyond 2^53 - 1 ms; nothing changed, dueAt is -1
]]
local dueKey, msgKey, id, wake = KEYS[1], KEYS[2], ARGV[1], ARGV[4]

local now = redisNow()
local dueAt = dueTimeOrNil(ARGV[2], ARGV[3], now)
if not dueAt then
  return {3, -1, now}
end
local record = rcall('HGET', msgKey, id)
if not record or not removeDue(dueKey, id, dueOfRecord(record)) then
  return {0, -1, now}
end

local firstBucket = addDue(dueKey, id, dueAt)
rcall('HSET', msgKey, id, withDue(record, dueAt))
wakeIfEarliest(dueKey, dueAt, firstBucket, now, wake)
return {1, dueAt, now}
