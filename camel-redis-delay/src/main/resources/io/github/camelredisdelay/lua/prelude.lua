--[[
  Helpers prepended to every script of this folder (see LuaScript.java); each script documents its own
  KEYS, ARGV and return values.
]]
local rcall = redis.call

-- Redis' clock in epoch ms: the one clock every node agrees on.
local function redisNow()
  local time = rcall('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The absolute due time for mode "delay" (amount is ms from now) or "at" (amount is epoch ms).
local function dueTime(mode, amount, now)
  local dueAt = tonumber(amount)
  if mode == 'delay' then
    dueAt = now + dueAt
  end
  return dueAt
end

-- Tells the transfer tasks, through the wake channel, the delay to a new earliest due time.
local function wakeIfEarliest(dueKey, id, dueAt, now, wake)
  local first = rcall('ZRANGE', dueKey, 0, 0)
  if first[1] == id then
    rcall('PUBLISH', wake, string.format('%d', math.max(0, dueAt - now)))
  end
end

local MAX_DUE = 9007199254740991
