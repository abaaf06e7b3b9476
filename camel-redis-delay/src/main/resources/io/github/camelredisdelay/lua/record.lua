--
-- Copyright The camel-redis-delay authors
--
-- Licensed under the Apache License, Version 2.0 (the "License");
-- you may not use this file except in compliance with the License.
-- You may obtain a copy of the License at
--
--     https://www.apache.org/licenses/LICENSE-2.0
--
-- Unless required by applicable law or agreed to in writing, software
-- distributed under the License is distributed on an "AS IS" BASIS,
-- WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
-- See the License for the specific language governing permissions and
-- limitations under the License.
--

--[[
  The stored form of a message, the record: when it was scheduled, its due time (both epoch ms) and its generation,
  big-endian unsigned integers of the sizes wire.lua gives, then its envelope. Binary, so that the two times take no
  more room than one did in decimal.

  The scheduled-at time and the generation together are the record's version, which tells versions of one message
  id apart. Settling a delivery (acknowledge, retry, dead-letter, lease expiry) touches the stored message only while
  it is still the version that was delivered, so the settlement of an old version never removes or reschedules a
  newer one: one stored while the old is ready or in flight (a replace, or a re-delay from its own delivery), or one
  stored afresh after the id was deleted meanwhile (a cancel). A replacement takes the generation after the one it
  replaces (as earlier releases, which start at 0 and compare the generation alone); a message stored afresh takes
  the microsecond within the millisecond of its write (freshGeneration), so it could only pass for an earlier version
  of its id written, delivered and deleted within that same millisecond, and with that microsecond as generation.
]]

-- struct formats of the head's fields, written out: every script call runs these lines, and building them from
-- wire.lua's sizes (number to string conversions) cost about a tenth of a schedule's time in Redis. WireTest checks
-- them against the sizes.
local HEAD_FORMAT = '>I6I7I2'
local SCHEDULED_AT_FORMAT = '>I6'
local DUE_AT_FORMAT = '>I7'
local GENERATION_FORMAT = '>I2'
local GENERATIONS = 65536

local function recordOf(envelope, scheduledAt, dueAt, generation)
  return struct.pack(HEAD_FORMAT, scheduledAt, dueAt, generation) .. envelope
end

-- Whether a stored value (false or nil when there is none) is a record: one shorter than a record's head was written
-- behind the component's back and holds no message.
local function isRecord(value)
  return value and #value >= RECORD_HEAD_BYTES
end

-- When the record's message was scheduled (epoch ms): a replacement's or a fresh message's own write, kept by a retry.
local function scheduledAtOf(record)
  return (struct.unpack(SCHEDULED_AT_FORMAT, record))
end

-- The due time a record holds: the one it is (or was last) scheduled for.
local function dueOfRecord(record)
  return (struct.unpack(DUE_AT_FORMAT, record, SCHEDULED_AT_BYTES + 1))
end

-- The record's generation.
local function generationOf(record)
  return (struct.unpack(GENERATION_FORMAT, record, SCHEDULED_AT_BYTES + DUE_AT_BYTES + 1))
end

-- The generation of a message stored afresh at nowMicros (epoch microseconds): the microsecond within its millisecond.
local function freshGeneration(nowMicros)
  return nowMicros % 1000
end

-- The generation of a replacement of record: the one after it, as earlier releases count (they compare the generation
-- alone, so a chain of replacements must not repeat one of its versions still in flight).
local function nextGeneration(record)
  return (generationOf(record) + 1) % GENERATIONS
end

-- The record with another due time.
local function withDue(record, dueAt)
  return string.sub(record, 1, SCHEDULED_AT_BYTES) .. struct.pack(DUE_AT_FORMAT, dueAt)
      .. string.sub(record, SCHEDULED_AT_BYTES + DUE_AT_BYTES + 1)
end

-- The version a record holds: its scheduled-at and generation bytes, as settlements name the version they deliver.
local function versionOf(record)
  return string.sub(record, 1, SCHEDULED_AT_BYTES)
      .. string.sub(record, SCHEDULED_AT_BYTES + DUE_AT_BYTES + 1, RECORD_HEAD_BYTES)
end

-- Whether record (false when there is none) is the version of its message that version (versionOf) names. A value that
-- is no record (isRecord) is no version but "*", which a delivery whose own record is no record either carries: a
-- record stored under its id is a replacement.
local function isVersion(record, version)
  if record == false then
    return false
  end
  if isRecord(record) then
    return versionOf(record) == version
  end
  return version == '*'
end
