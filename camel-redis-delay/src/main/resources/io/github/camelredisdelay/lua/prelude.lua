--[[
  Helpers prepended to every script of this folder, before the helper files a script asks for (see LuaScript.java):
  due-set.lua, batches.lua. Each script documents its own KEYS, ARGV and return values.
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
