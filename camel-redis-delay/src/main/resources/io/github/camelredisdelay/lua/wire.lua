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
  Values shared with the Java side, defined once per language with the same names (Java: internal/Wire.java;
  WireTest checks that both agree). Prepended to every script after prelude.lua.
]]
-- the record's head (record.lua): big-endian unsigned integers
local SCHEDULED_AT_BYTES = 6
local DUE_AT_BYTES = 7
local GENERATION_BYTES = 2
local RECORD_HEAD_BYTES = 15
-- fields of a ready-stream entry
local FIELD_ID = 'i'
local FIELD_RECORD = 'r'
local FIELD_FAILURE = 'f'
-- statuses of schedule.lua and reschedule.lua
local STATUS_KEPT = 0
local STATUS_SCHEDULED = 1
local STATUS_DUPLICATE = 2
local STATUS_DUE_OVERFLOW = 3
local STATUS_REPLACED = 4
-- statuses of retry.lua
local RETRY_NOT_PENDING = 0
local RETRY_SCHEDULED = 1
local RETRY_SUPERSEDED = 2
local RETRY_PURGED = 3
local RETRY_GONE = 4
-- statuses of discard.lua
local DISCARD_REMOVED = 0
local DISCARD_IN_FLIGHT = 1
local DISCARD_GONE = 2
-- the wake channel's notice that messages went to the ready stream
local WAKE_READY = 'ready'
-- the wake channel's notice that a stopping or suspended consumer handed messages back (hand-back.lua)
local WAKE_HANDED_BACK = 'handed-back'
