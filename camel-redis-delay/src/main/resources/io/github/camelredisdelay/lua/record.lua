--[[
  The stored form of a message, the record (see LuaScript.java for how helper files are included; uses prelude.lua):
  when it was scheduled (6 bytes), its due time (7 bytes), both epoch ms, and its generation (2 bytes), all
  big-endian unsigned integers, then its envelope. Binary, so that the two times take no more room than one did in
  decimal.

  The generation tells versions of one message id apart: a message stored while an earlier version with its id is
  ready or in flight (a replace, or a re-delay from its own delivery) gets the next one. Settling a delivery
  (acknowledge, retry, dead-letter, lease expiry) touches the stored message only while it is still the version
  that was delivered, so the settlement of an old version never removes or reschedules a newer one.
]]

local GENERATIONS = 65536

local function recordOf(envelope, scheduledAt, dueAt, generation)
  return struct.pack('>I6I7I2', scheduledAt, dueAt, generation) .. envelope
end

-- The due time a record holds: the one it is (or was last) scheduled for.
local function dueOfRecord(record)
  return (struct.unpack('>I7', record, 7))
end

-- The record's generation.
local function generationOf(record)
  return (struct.unpack('>I2', record, 14))
end

-- The generation that follows record's.
local function nextGeneration(record)
  return (generationOf(record) + 1) % GENERATIONS
end

-- The record with another due time.
local function withDue(record, dueAt)
  return string.sub(record, 1, 6) .. struct.pack('>I7', dueAt) .. string.sub(record, 14)
end

-- Whether record (false when there is none) is the version of its message that has generation: "*" stands for
-- any version, for a delivery whose own record could not be read.
local function isGeneration(record, generation)
  return record ~= false and (generation == '*' or generationOf(record) == tonumber(generation))
end
