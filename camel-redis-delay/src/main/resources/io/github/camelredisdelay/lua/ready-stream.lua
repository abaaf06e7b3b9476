--[[
  Helpers for the scripts that read the ready stream's entries for inspection (see LuaScript.java); they use
  prelude.lua and wire.lua.
]]

-- The id of the entry the consumer group delivered last, or nil when the group does not exist (no consumer ever
-- started). Entries up to it are in flight: acknowledged and retried ones are deleted from the stream.
local function lastDeliveredId()
  local groups = redis.pcall('XINFO', 'GROUPS', readyKey)
  if type(groups) ~= 'table' or groups.err then
    return nil
  end
  for _, info in ipairs(groups) do
    local name, lastDelivered
    for i = 1, #info, 2 do
      if info[i] == 'name' then
        name = info[i + 1]
      elseif info[i] == 'last-delivered-id' then
        lastDelivered = info[i + 1]
      end
    end
    if name == group then
      return lastDelivered
    end
  end
  return nil
end

-- The message id, record and failure note (false when none) a stream entry's fields hold.
local function entryFields(fields)
  local id, record, note = nil, nil, false
  for i = 1, #fields, 2 do
    if fields[i] == FIELD_ID then
      id = fields[i + 1]
    elseif fields[i] == FIELD_RECORD then
      record = fields[i + 1]
    elseif fields[i] == FIELD_FAILURE then
      note = fields[i + 1]
    end
  end
  return id, record, note
end
