--[[
  Helpers for the scripts that handle many messages per call (see LuaScript.java); they use prelude.lua.
]]

-- Most items passed to one variadic command: Lua's unpack is bounded.
local CHUNK = 1000

-- Runs command with the arguments in head followed by the items of list, CHUNK items at a time: one call for many
-- items instead of one each (every redis.call costs far more than the work of a small command). Returns the sum of
-- the replies, which for the commands used here are counts.
local function rcallEach(command, head, list)
  local total = 0
  for first = 1, #list, CHUNK do
    local args = {unpack(head)}
    for i = first, math.min(first + CHUNK - 1, #list) do
      args[#args + 1] = list[i]
    end
    total = total + rcall(command, unpack(args))
  end
  return total
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
-- message that reuses the id. Returns how many were acknowledged. One XACK takes them all; when it acknowledges
-- fewer than given, those it did are the ones still in the stream: every script that acknowledges an entry deletes
-- it in the same call (here and retry.lua), so an entry that was delivered and is no longer pending is gone.
local function acknowledge(readyKey, msgKey, failKey, group, first, count)
  local entryIds, messageIds = {}, {}
  for i = first, first + 2 * (count - 1), 2 do
    entryIds[#entryIds + 1] = ARGV[i]
    messageIds[#messageIds + 1] = ARGV[i + 1]
  end
  local acked = rcallEach('XACK', {readyKey, group}, entryIds)
  if acked < count then
    local stillThere, theirMessages = {}, {}
    for i = 1, count do
      if #rcall('XRANGE', readyKey, entryIds[i], entryIds[i]) > 0 then
        stillThere[#stillThere + 1] = entryIds[i]
        theirMessages[#theirMessages + 1] = messageIds[i]
      end
    end
    entryIds, messageIds = stillThere, theirMessages
  end
  rcallEach('XDEL', {readyKey}, entryIds)
  rcallEach('HDEL', {msgKey}, messageIds)
  rcallEach('HDEL', {failKey}, messageIds)
  return #entryIds
end
