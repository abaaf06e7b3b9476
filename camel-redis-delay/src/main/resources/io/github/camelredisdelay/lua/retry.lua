--[[
  Puts a failed delivery back on schedule: acknowledges its stream entry, makes the message due again after a
  delay and records how often it failed and why. Nothing happens when the entry is no longer pending (its lease
  expired and another consumer took it over). When a newer version of the message was stored meanwhile (a replace,
  or a re-delay from this very delivery: see record.lua), the failed delivery is only acknowledged and the newer
  version keeps its own schedule: the explicit re-delay wins.

  KEYS[1] ready  STREAM ready messages
  KEYS[2] due    ZSET   index of the due set (see due-set.lua)
  KEYS[3] fail   HASH   message id -> failure note
  KEYS[4] msg    HASH   message id -> record, whose due time is updated

  ARGV[1] consumer group
  ARGV[2] stream entry id of the failed delivery
  ARGV[3] message id
  ARGV[4] delay before the next delivery, ms
  ARGV[5] failure note: "<failed deliveries>:<last error>"
  ARGV[6] wake channel
  ARGV[7] generation that was delivered (see record.lua)

  Returns {status, dueAt}: status 1 when rescheduled for dueAt, 0 when the entry was no longer pending, 2 when a
  newer version of the message is stored (dueAt -1)
]]
local readyKey, dueKey, failKey, msgKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local group, entryId, id, wake = ARGV[1], ARGV[2], ARGV[3], ARGV[6]

if rcall('XACK', readyKey, group, entryId) == 0 then
  return {0, -1}
end
rcall('XDEL', readyKey, entryId)
local record = rcall('HGET', msgKey, id)
if not isGeneration(record, ARGV[7]) then
  return {2, -1}
end
local now = redisNow()
local dueAt = dueTime('delay', ARGV[4], now)
local firstBucket = addDue(dueKey, id, dueAt)
rcall('HSET', msgKey, id, withDue(record, dueAt))
rcall('HSET', failKey, id, ARGV[5])
wakeIfEarliest(dueKey, dueAt, firstBucket, now, wake)
return {1, dueAt}
