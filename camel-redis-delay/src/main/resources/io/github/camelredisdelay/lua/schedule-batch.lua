--[[
  Schedules many new messages with one due time, computed from Redis' own clock, in one step. Their ids are
  fresh (generated), so no duplicate handling is needed.

  KEYS[1] due    ZSET   message id -> due time (epoch ms, Redis clock)
  KEYS[2] msg    HASH   message id -> record: "<scheduledAt>:" .. envelope
  KEYS[3] ready  STREAM ready messages

  ARGV[1] "delay": ARGV[2] is a delay in ms from now; "at": ARGV[2] is an absolute due time in epoch ms
  ARGV[2] the delay or due time, a non-negative integer
  ARGV[3] wake channel, told the delay (ms) to a new earliest due time
  ARGV[4], ARGV[5]  message id, envelope; more pairs follow

  Returns {dueAt, now}
  Errors
    "DUE_OVERFLOW": the due time is beyond 2^53 - 1 ms
]]
local dueKey, msgKey, readyKey = KEYS[1], KEYS[2], KEYS[3]

local now = redisNow()
local dueAt = dueTime(ARGV[1], ARGV[2], now)
for i = 4, #ARGV, 2 do
  local record = recordOf(ARGV[i + 1], now)
  rcall('HSET', msgKey, ARGV[i], record)
  makeDue(dueKey, readyKey, ARGV[i], record, dueAt, now)
end
if dueAt > now and #ARGV >= 4 then
  wakeIfEarliest(dueKey, dueAt, now, ARGV[3])
end
return {dueAt, now}
