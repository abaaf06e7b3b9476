--[[
  Acknowledges the messages a consumer has finished and fetches its next ones, in one round trip (see
  acknowledge() in prelude.lua). It does not wait: when nothing is ready the caller blocks on XREADGROUP itself.

  KEYS[1] ready  STREAM ready messages, read through the consumer group
  KEYS[2] msg    HASH   message id -> record
  KEYS[3] fail   HASH   message id -> failure note

  ARGV[1]            consumer group
  ARGV[2]            the consumer
  ARGV[3]            at most this many new messages
  ARGV[4], ARGV[5]   stream entry id, message id of a finished message; more pairs may follow

  Returns the new messages as {{entry id, {field, value, ...}}, ...}, empty when none is ready
]]
local readyKey, group = KEYS[1], ARGV[1]
acknowledge(readyKey, KEYS[2], KEYS[3], group, 4, (#ARGV - 3) / 2)
local read = rcall('XREADGROUP', 'GROUP', group, ARGV[2], 'COUNT', ARGV[3], 'STREAMS', readyKey, '>')
if not read then
  return {}
end
return read[1][2]
