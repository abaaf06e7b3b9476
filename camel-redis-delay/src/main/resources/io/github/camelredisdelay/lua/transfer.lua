--[[
  Moves due messages from the due set to the ready stream, oldest due time first, and tells how long
  until the next one is due, so the caller can sleep exactly that long. Time is Redis' own clock.

  KEYS[1] due    ZSET   message id -> due time (epoch ms)
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] ready  STREAM ready messages, fields i (id), d (due time), r (record), f (failure, if any)
  KEYS[4] fail   HASH   message id -> "<failed deliveries>:<last error>", only for messages that failed

  ARGV[1] at most this many messages are moved

  Returns {moved, nextDelay}
    moved:     messages moved now
    nextDelay: ms until the next due message; 0 when more are due now; -1 when none is scheduled
]]
local dueKey, msgKey, readyKey, failKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local batch = tonumber(ARGV[1])

local now = redisNow()

local due = rcall('ZRANGEBYSCORE', dueKey, '-inf', now, 'WITHSCORES', 'LIMIT', 0, batch)
local moved = #due / 2
if moved > 0 then
  local ids = {}
  for i = 1, #due, 2 do
    ids[#ids + 1] = due[i]
  end
  local records, failures = hashValues(msgKey, ids), hashValues(failKey, ids)
  for j = 1, moved do
    local record, failure = records[j], failures[j]
    if record and failure then
      rcall('XADD', readyKey, '*', 'i', ids[j], 'd', due[2 * j], 'r', record, 'f', failure)
    elseif record then
      rcall('XADD', readyKey, '*', 'i', ids[j], 'd', due[2 * j], 'r', record)
    end
  end
  -- the ids just read are exactly the lowest ranks of the set
  rcall('ZREMRANGEBYRANK', dueKey, 0, moved - 1)
end

if moved == batch then
  return {moved, 0}
end
local next = rcall('ZRANGE', dueKey, 0, 0, 'WITHSCORES')
if #next == 0 then
  return {moved, -1}
end
return {moved, math.max(0, tonumber(next[2]) - now)}
