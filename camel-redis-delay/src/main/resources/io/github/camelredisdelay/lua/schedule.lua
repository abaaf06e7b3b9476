--[[
  Schedules a message: stores its record and makes it due at a time computed from Redis' own clock.
  A message that is already due goes straight to the ready stream.

  KEYS[1] due    ZSET   message id -> due time (epoch ms, Redis clock)
  KEYS[2] msg    HASH   message id -> record: "<scheduledAt>:" .. envelope
  KEYS[3] ready  STREAM ready messages, fields i (id), d (due time), r (record)
  KEYS[4] fail   HASH   message id -> failure note; a replaced message starts without one

  ARGV[1] message id
  ARGV[2] envelope (binary, opaque here)
  ARGV[3] "delay": ARGV[4] is a delay in ms from now; "at": ARGV[4] is an absolute due time in epoch ms
  ARGV[4] the delay or due time, a non-negative integer
  ARGV[5] on duplicate id: "keep", "replace" or "fail"
  ARGV[6] wake channel, told the delay (ms) to a new earliest due time

  Returns {status, dueAt, now}
    status 1: scheduled; dueAt is the stored due time
    status 0: kept the existing message with this id; dueAt is its due time, or -1 once it is ready or in flight
  Errors
    "DUPLICATE <dueAt>": on duplicate "fail" and the id exists
    "DUE_OVERFLOW":      the due time is beyond 2^53 - 1 ms
]]
local dueKey, msgKey, readyKey, failKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, envelope, mode, onDuplicate, wake = ARGV[1], ARGV[2], ARGV[3], ARGV[5], ARGV[6]

local now = redisNow()
local dueAt = dueTime(mode, ARGV[4], now)

local record = recordOf(envelope, now)
if rcall('HSETNX', msgKey, id, record) == 0 then
  local existing = rcall('ZSCORE', dueKey, id)
  local existingDue = existing and tonumber(existing) or -1
  if onDuplicate == 'fail' then
    return redis.error_reply('DUPLICATE ' .. string.format('%d', existingDue))
  end
  if onDuplicate ~= 'replace' or not existing then
    return {0, existingDue, now}
  end
  rcall('HSET', msgKey, id, record)
  rcall('HDEL', failKey, id)
  rcall('ZREM', dueKey, id)
end

makeDue(dueKey, readyKey, id, record, dueAt, now)
if dueAt > now then
  wakeIfEarliest(dueKey, dueAt, now, wake)
end
return {1, dueAt, now}
