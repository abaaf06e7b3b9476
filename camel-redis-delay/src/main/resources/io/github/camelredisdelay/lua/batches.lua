--[[
  Helpers for the scripts that handle many messages per call (see LuaScript.java); they use prelude.lua.
]]

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
