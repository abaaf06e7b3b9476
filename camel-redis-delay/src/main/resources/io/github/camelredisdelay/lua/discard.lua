--[[
  Removes a message that was copied elsewhere (a redriven dead letter) from the ready stream, with its record and
  failure note while they are still the version the entry holds. An entry a consumer has fetched meanwhile is left
  to it: the copy then is a duplicate, never a loss.

  Includes: record.lua

  KEYS, ARGV[1] and ARGV[2]: the queue's keys, wake channel and consumer group (prelude.lua)
  ARGV[3] stream entry id
  ARGV[4] message id
  ARGV[5] generation the entry holds

  Returns 1 when the entry was removed, 0 when it is gone or in flight
]]
local entryId, id, generation = ARGV[3], ARGV[4], ARGV[5]
if #rcall('XRANGE', readyKey, entryId, entryId) == 0 then
  return 0
end
local pending = redis.pcall('XPENDING', readyKey, group, entryId, entryId, 1)
if type(pending) == 'table' and not pending.err and #pending > 0 then
  return 0
end
rcall('XDEL', readyKey, entryId)
if isGeneration(rcall('HGET', msgKey, id), generation) then
  rcall('HDEL', msgKey, id)
  rcall('HDEL', failKey, id)
end
return 1
