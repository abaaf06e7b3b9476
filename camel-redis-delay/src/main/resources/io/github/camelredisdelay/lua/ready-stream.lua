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
  Helpers for the scripts that read the ready stream's entries and its consumer group (see LuaScript.java); they use
  prelude.lua and wire.lua.
]]

-- Most stream entries a script reads in one call when it looks for a message by id, so that a long stream never keeps
-- Redis busy: a search goes on in further calls, each after the last entry the previous one read.
local STREAM_PAGE = 500

-- An entry of XINFO GROUPS or XINFO CONSUMERS (field names alternating with their values) as a table by field name.
local function infoFields(info)
  local fields = {}
  for i = 1, #info, 2 do
    fields[info[i]] = info[i + 1]
  end
  return fields
end

-- Runs a command on the consumer group with redis.pcall: its reply, or nil when the ready stream or the group does not
-- exist (no consumer ever started). Any other error, such as an ACL's refusal, fails the script, naming the command and
-- its first argument (Redis 7.0's refusal inside a script does not): answering as if there were no group would count
-- messages in flight as ready.
local function groupCall(...)
  local reply = redis.pcall(...)
  if type(reply) == 'table' and reply.err then
    if string.find(reply.err, '^NOGROUP') or string.find(reply.err, '^ERR no such key') then
      return nil
    end
    local args = {...}
    error(args[1] .. ' ' .. args[2] .. ': ' .. reply.err)
  end
  return reply
end

-- The consumer group's pending count and the id of the entry it delivered last, or nil when the group does not exist
-- (no consumer ever started). Entries up to that id are in flight: acknowledged and retried ones are deleted from the
-- stream.
local function groupState()
  local groups = groupCall('XINFO', 'GROUPS', readyKey)
  if not groups then
    return nil
  end
  for _, info in ipairs(groups) do
    local fields = infoFields(info)
    if fields['name'] == group then
      return fields['pending'], fields['last-delivered-id']
    end
  end
  return nil
end

-- The consumers of the group (XINFO CONSUMERS), each as a table by field name (name, pending, idle); none while the
-- ready stream does not exist.
local function groupConsumers()
  local consumers = {}
  if rcall('EXISTS', readyKey) == 0 then
    return consumers
  end
  for _, info in ipairs(rcall('XINFO', 'CONSUMERS', readyKey, group)) do
    consumers[#consumers + 1] = infoFields(info)
  end
  return consumers
end

-- The id of the stream's newest entry, '0-0' when it is empty: a bound that no entry added later falls under.
local function newestEntryId()
  local newest = rcall('XREVRANGE', readyKey, '+', '-', 'COUNT', 1)[1]
  return newest and newest[1] or '0-0'
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

-- The lease of the entry with this id, {entry id, consumer, idle ms, times delivered}, or nil when it is not
-- pending. Times delivered counts every delivery of the entry: the one under way and those whose lease expired.
local function lease(entryId)
  return rcall('XPENDING', readyKey, group, entryId, entryId, 1)[1]
end

-- The consumer of the group that holds what consumers handed back (hand-back.lua): no consumer's name ends like it
-- (theirs end in "~<visibility timeout in ms>", ConsumerNames.java). Its own pending list holds just those entries, so
-- they are counted and listed without reading the whole group's, which holds every message in flight.
local HANDED_BACK_CONSUMER = 'handed-back'

-- Whether a lease (see lease) was handed back (hand-back.lua): HANDED_BACK_CONSUMER holds it. Such an entry waits for
-- a consumer to take it over, as a ready one does.
local function handedBack(pending)
  return pending[2] == HANDED_BACK_CONSUMER
end

-- The visibility timeout (ms) a consumer's name ends in, "~<ms>" (ConsumerNames.java), or nil for another name (the
-- HANDED_BACK_CONSUMER's).
local function visibilityOf(consumer)
  return tonumber(string.match(consumer, '~(%d+)$'))
end

-- Whether a lease (see lease) expired: the consumer holding it neither settled nor extended it within its visibility
-- timeout (it died or hangs), so that it is no consumer's work any more. Not a handed-back lease (see handedBack).
local function leaseExpired(pending)
  local visibility = visibilityOf(pending[2])
  return visibility ~= nil and pending[3] >= visibility
end

-- Whether a consumer works on the entry of this lease (see lease): it was fetched, and neither handed back nor expired.
-- Whoever copied the entry elsewhere (a redrive) leaves it to that consumer.
local function inFlight(pending)
  return not (handedBack(pending) or leaseExpired(pending))
end

-- How many entries are handed back, and the lease (see lease) of the first of them, or nil when none is: read in time
-- that grows with the number of consumers of the group, not with the number of messages in flight.
local function handedBackEntries()
  local count = 0
  for _, consumerPending in ipairs(rcall('XPENDING', readyKey, group)[4] or {}) do
    if consumerPending[1] == HANDED_BACK_CONSUMER then
      count = tonumber(consumerPending[2])
    end
  end
  if count == 0 then
    return 0, nil
  end
  return count, rcall('XPENDING', readyKey, group, '-', '+', 1, HANDED_BACK_CONSUMER)[1]
end

-- The first expired lease (see leaseExpired) of each consumer that holds expired ones, as lease returns it: of the
-- consumers not seen for their visibility timeout (a process killed, or hung), whose leases are at least as idle, as
-- they touched each last at the latest when they were last seen. Such leases wait for a consumer to take them over as
-- handed-back ones do. Read in time that grows with the number of consumers of the group, not with the number of
-- messages in flight.
local function firstExpiredLeases()
  local leases = {}
  for _, consumer in ipairs(groupConsumers()) do
    local visibility = visibilityOf(consumer.name)
    if consumer.pending > 0 and visibility and consumer.idle >= visibility then
      leases[#leases + 1] = rcall('XPENDING', readyKey, group, 'IDLE', visibility, '-', '+', 1, consumer.name)[1]
    end
  end
  return leases
end

-- Whether stream entry id a comes before b.
local function entryBefore(a, b)
  local aTime, aSeq = string.match(a, '^(%d+)-(%d+)$')
  local bTime, bSeq = string.match(b, '^(%d+)-(%d+)$')
  if tonumber(aTime) ~= tonumber(bTime) then
    return tonumber(aTime) < tonumber(bTime)
  end
  return tonumber(aSeq) < tonumber(bSeq)
end

-- Whether Redis lost the delivery of the entry with this id of message id: it holds neither the entry nor any version
-- of the message, and its consumer group never delivered the entry (the group is missing, or the entry it delivered
-- last comes before this one): flushed, restored from a snapshot older than the delivery, its keys deleted by hand.
-- A consumer that took the lease over and settled it, or a purge, leaves the group's last delivered entry at or after
-- this one.
local function gone(entryId, id)
  if rcall('HGET', msgKey, id) or #rcall('XRANGE', readyKey, entryId, entryId) > 0 then
    return false
  end
  local _, lastDelivered = groupState()
  return not lastDelivered or entryBefore(lastDelivered, entryId)
end

-- Whether the entry with this id is pending to consumer: delivered to it and neither settled nor taken over by another.
local function holds(entryId, consumer)
  local pending = lease(entryId)
  return pending ~= nil and pending[2] == consumer
end
