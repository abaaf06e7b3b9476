--[[
  Helpers prepended to every script of this folder (see LuaScript.java); each script documents its own
  KEYS, ARGV and return values.
]]
local rcall = redis.call

-- Due times are integers held in Lua numbers (doubles): exact up to 2^53 - 1.
local MAX_DUE = 9007199254740991

-- Redis' clock in epoch ms: the one clock every node agrees on.
local function redisNow()
  local time = rcall('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The absolute due time for mode "delay" (amount is ms from now) or "at" (amount is epoch ms); nil beyond MAX_DUE.
local function dueTimeOrNil(mode, amount, now)
  local dueAt = tonumber(amount)
  if mode == 'delay' then
    dueAt = now + dueAt
  end
  if dueAt > MAX_DUE then
    return nil
  end
  return dueAt
end

-- dueTimeOrNil, failing the script with DUE_OVERFLOW beyond MAX_DUE.
local function dueTime(mode, amount, now)
  return dueTimeOrNil(mode, amount, now) or error('DUE_OVERFLOW due time exceeds 2^53-1 ms')
end

-- The stored form of a message: when it was scheduled, then its envelope.
local function recordOf(envelope, now)
  return string.format('%d', now) .. ':' .. envelope
end

-- Makes a stored message due: into the due set, or straight into the ready stream when the due time has come. The
-- message must not be in the due set already (a replaced one is taken out first).
local function makeDue(dueKey, readyKey, id, record, dueAt, now)
  if dueAt <= now then
    rcall('XADD', readyKey, '*', 'i', id, 'd', string.format('%d', dueAt), 'r', record)
  else
    rcall('ZADD', dueKey, dueAt, id)
  end
end

-- Tells the transfer tasks, through the wake channel, the delay to a just stored due time if it is the earliest
-- (no message is due before it; counting them is an integer reply, cheaper in Lua than reading the first entry).
local function wakeIfEarliest(dueKey, dueAt, now, wake)
  if rcall('ZCOUNT', dueKey, '-inf', '(' .. string.format('%d', dueAt)) == 0 then
    rcall('PUBLISH', wake, string.format('%d', math.max(0, dueAt - now)))
  end
end

-- Most items passed to one variadic command: Lua's unpack is bounded.
local CHUNK = 1000

-- Runs command on key with the items of list as its trailing arguments, CHUNK at a time: one call for many items
-- instead of one each (every redis.call costs far more than the work of a small command).
local function rcallEach(command, key, list)
  for first = 1, #list, CHUNK do
    rcall(command, key, unpack(list, first, math.min(first + CHUNK - 1, #list)))
  end
end

-- The values of the fields in list of the hash at key, in list order (false for a missing field), CHUNK at a time.
local function hashValues(key, list)
  local values = {}
  for first = 1, #list, CHUNK do
    local part = rcall('HMGET', key, unpack(list, first, math.min(first + CHUNK - 1, #list)))
    for j = 1, #part do
      values[#values + 1] = part[j]
    end
  end
  return values
end

-- Acknowledges delivered messages given as ARGV pairs (stream entry id, message id) from ARGV[first] on, for
-- count pairs: removes each from the stream, its record and its failure note. An entry that is no longer pending
-- (another consumer already acknowledged it) is left alone, so a late acknowledgement never deletes a newer
-- message that reuses the id. Returns how many were acknowledged.
local function acknowledge(readyKey, msgKey, failKey, group, first, count)
  local entryIds, messageIds = {}, {}
  for i = first, first + 2 * (count - 1), 2 do
    if rcall('XACK', readyKey, group, ARGV[i]) == 1 then
      entryIds[#entryIds + 1] = ARGV[i]
      messageIds[#messageIds + 1] = ARGV[i + 1]
    end
  end
  rcallEach('XDEL', readyKey, entryIds)
  rcallEach('HDEL', msgKey, messageIds)
  rcallEach('HDEL', failKey, messageIds)
  return #entryIds
end
