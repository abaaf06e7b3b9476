--[[
  Moves due messages from the due set to the ready stream, oldest due time first, and tells how long
  until the next one is due, so the caller can sleep exactly that long. Time is Redis' own clock.

  KEYS[1] due    ZSET   index of the due set: message ids by due time (epoch ms), see due-set.lua
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] ready  STREAM ready messages, fields i (id), r (record), f (failure, if any)
  KEYS[4] fail   HASH   message id -> "<failed deliveries>:<last error>", only for messages that failed

  ARGV[1] at most this many messages are moved
  ARGV[2] wake channel, told "ready" once when messages were moved (waiting consumers read then); optional

  Returns {moved, nextDelay}
    moved:     messages moved now
    nextDelay: ms until the next due message; 0 when more are due now; -1 when none is scheduled
]]
local dueKey, msgKey, readyKey, failKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local batch = tonumber(ARGV[1])

local now = redisNow()

-- Due entries come from the first buckets, in order; a bucket left with entries holds none that is due, and the
-- buckets after it none either.
local ids = {}
while #ids < batch do
  local first = rcall('ZRANGE', dueKey, 0, 0, 'WITHSCORES')
  if #first == 0 or tonumber(first[2]) > now then
    break
  end
  local bucket = bucketKey(dueKey, first[1])
  local due = rcall('ZRANGEBYSCORE', bucket, '-inf', now, 'LIMIT', 0, batch - #ids)
  for i = 1, #due do
    ids[#ids + 1] = due[i]
  end
  if #due > 0 then
    -- the ids just read are exactly the lowest ranks of the bucket
    rcall('ZREMRANGEBYRANK', bucket, 0, #due - 1)
  end
  if rcall('EXISTS', bucket) == 1 then
    break
  end
  rcall('ZREM', dueKey, first[1])
end

local moved = #ids
if moved > 0 then
  local records, failures = hashValues(msgKey, ids), hashValues(failKey, ids)
  for j = 1, moved do
    local record, failure = records[j], failures[j]
    if record and failure then
      rcall('XADD', readyKey, '*', 'i', ids[j], 'r', record, 'f', failure)
    elseif record then
      rcall('XADD', readyKey, '*', 'i', ids[j], 'r', record)
    end
  end
end

if moved > 0 and ARGV[2] then
  rcall('PUBLISH', ARGV[2], 'ready')
end

if moved == batch then
  return {moved, 0}
end
local next = earliestDue(dueKey)
if not next then
  return {moved, -1}
end
return {moved, math.max(0, next - now)}
