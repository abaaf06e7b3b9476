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
-- statuses of retry.lua
local RETRY_NOT_PENDING = 0
local RETRY_SCHEDULED = 1
local RETRY_SUPERSEDED = 2
-- the wake channel's notice that messages went to the ready stream
local WAKE_READY = 'ready'
