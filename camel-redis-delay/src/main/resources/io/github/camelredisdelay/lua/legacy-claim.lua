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
  Takes messages over from a Redisson RDelayedQueue for a migration (internal/MigrationTask) and returns the next
  batch to migrate. Not a queue script: it runs on the legacy queue's slot (Redisson's keys share the hash tag
  {name}, and the destination list "name" hashes alike) and gets neither the queue keys nor the common arguments
  of prelude.lua, which is not prepended.

  KEYS[1] timeout  ZSET   Redisson's pending messages: member = packed random id + value (see valueOf), score = due
                          time (epoch ms)
  KEYS[2] order    LIST   Redisson's pending messages in offer order: the same members as KEYS[1]
  KEYS[3] target   LIST   Redisson's destination: values already due, not yet taken by an old consumer
  KEYS[4] pending  ZSET   taken over, not yet migrated: members as in KEYS[1], score = due time
  KEYS[5] sequence STRING numbers the values taken from the destination list, so that each gets a member of its own
  KEYS[6] owner    STRING the lease of the migrating task (PX), so one task migrates at a time
  KEYS[7] unmark   SET    ids of migrated messages removed from KEYS[4] (legacy-remove.lua) whose marks on the queue
                          (migrate.lua) may not be cleared yet
  KEYS[8] fence    STRING counts the leases: each new holder gets the next number, and the queue refuses the writes
                          of a task holding a lower one (migration-fence.lua), whose lease ran out while it stalled
  KEYS[9] into     STRING the queue the messages are migrated into, kept ARGV[8] ms after its last claim (PX): a task
                          migrating into another queue is refused meanwhile, so that two queues naming the legacy
                          queue in migrateFrom do not split its messages between them; kept for good while a batch
                          this returned may be written to that queue and not yet removed (legacy-remove.lua keeps it
                          ARGV[8] ms again), as only that queue's marks keep such a batch, repeated, from being stored
                          twice (migrate.lua)
  ARGV[1] owner token of the calling task
  ARGV[2] lease in ms
  ARGV[3] batch size: most messages returned, and most taken from the destination list or moved one by one
  ARGV[4] 1 when the calling task cleared the marks of every batch it removed, else 0 (its first claim, or one after a
          failed step)
  ARGV[5] the highest lease number a queue shard named when it refused the calling task's writes, else 0
  ARGV[6] batch bytes: the messages returned or taken from the destination list end with the first that brings their
          bytes to this many (at least one is taken), so a batch of large values stays small
  ARGV[7] the name of the queue the calling task migrates into
  ARGV[8] ms KEYS[9] is kept after a claim

  The timeout set is taken over whole: renamed to KEYS[4] in O(1) when that is empty (without the time to live the
  application may have given it), else moved member by member once it holds at most a batch, within the batch bytes
  (larger, it waits for KEYS[4] to empty); the order list, which holds the same members, is unlinked (freed off the
  main thread). Values of the destination list get a member
  "migrated:<name>:<n>" packed like Redisson's and the current time as due time. Nothing is removed from KEYS[4]:
  legacy-remove.lua does that once the batch is written to the new queue.

  KEYS[7] is emptied when the caller held the lease already and says it cleared its marks; otherwise (a task taking
  over from one that may have died between legacy-remove.lua and clearing the marks, or one whose step failed) its ids
  are returned for the caller to clear before anything else.

  Returns {owned, pending, waiting, ready, fence, unmark, id, ..., member, dueAt, value, member, dueAt, value, ...}
    owned:   1, or 0 when another task holds the lease (then nothing follows but fence 0 and unmark 0), or -1 when a
             task migrating into another queue claimed within ARGV[8] ms (then fence 0, unmark 0 and that queue's name)
    pending: members of KEYS[4]; waiting: of KEYS[1]; ready: of KEYS[3], all after this call
    fence:   the number of the caller's lease, for its writes to the queue
    unmark:  the number of ids that follow, those of KEYS[7], whose marks the caller is to clear
    then the batch, earliest due time first: member, due time (epoch ms, integer), Redisson's encoded value
]]
local rcall = redis.call
local timeoutKey, orderKey, targetKey, pendingKey, sequenceKey, ownerKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local unmarkKey, fenceKey, intoKey = KEYS[7], KEYS[8], KEYS[9]
local owner, batch, batchBytes = ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[6])

-- The value packed in a member of Redisson's timeout set. Redisson since 3.21.1 packs 'Bc0Lc0' (a random id of its
-- own length, then the value), before it 'dLc0' (a random number, then the value); old producers may still write the
-- old layout while a migration runs. A member in neither layout (each length field must match the member's) is
-- returned whole, so that it is migrated rather than stopping the migration. The first byte of an old member's random
-- number is any byte, and a value ending in zero bytes could then match the newer layout with an id up to its end: so
-- that layout is tried first only with the id length Redisson writes (8) or for a member of this script's own
-- ("migrated:<name>:<n>"), and with any other id length (another client's) only after the old one.
local MIGRATED = 'migrated:'
local function newLayoutValue(member, size, idLength)
  if size >= 1 + idLength + 8 then
    local head = 1 + idLength + 8
    if head + struct.unpack('L', member, 2 + idLength) == size then
      return string.sub(member, head + 1)
    end
  end
  return nil
end

local function valueOf(member)
  local size = #member
  local idLength = string.byte(member, 1)
  if not idLength then
    return member
  end
  if idLength == 8 or string.sub(member, 2, 1 + #MIGRATED) == MIGRATED then
    local value = newLayoutValue(member, size, idLength)
    if value then
      return value
    end
  end
  if size >= 16 and 16 + struct.unpack('L', member, 9) == size then
    return string.sub(member, 17)
  end
  return newLayoutValue(member, size, idLength) or member
end

-- The first members of a sorted set, with their scores: at most maxCount, ending with the first that brings their
-- bytes to maxBytes. Read in chunks sized by the members read so far, so that large ones are not read beyond that.
local function readWithin(key, maxCount, maxBytes)
  local read, count, bytes, chunk = {}, 0, 0, 1
  while count < maxCount and bytes < maxBytes do
    local members = rcall('ZRANGE', key, count, math.min(count + chunk, maxCount) - 1, 'WITHSCORES')
    if #members == 0 then
      break
    end
    for i = 1, #members, 2 do
      read[#read + 1] = members[i]
      read[#read + 1] = members[i + 1]
      count = count + 1
      bytes = bytes + #members[i]
    end
    chunk = math.max(1, math.min(100, math.floor((maxBytes - bytes) * count / bytes)))
  end
  return read
end

local function counts(owned)
  return {owned, rcall('ZCARD', pendingKey), rcall('ZCARD', timeoutKey), rcall('LLEN', targetKey)}
end

local into = rcall('GET', intoKey)
if into and into ~= ARGV[7] then
  local reply = counts(-1)
  reply[5] = 0
  reply[6] = 0
  reply[7] = into
  return reply
end
local holder = rcall('GET', ownerKey)
if holder and holder ~= owner then
  local reply = counts(0)
  reply[5] = 0
  reply[6] = 0
  return reply
end
local fence = tonumber(rcall('GET', fenceKey) or '0')
local seen = tonumber(ARGV[5])
if holder ~= owner or seen >= fence then
  -- a new lease, even for a task whose own ran out: what it wrote under the old one may be repeated by now; or the
  -- holder's writes were refused for a number its lease does not reach (the counter was lost): above that one
  fence = math.max(fence, seen) + 1
  rcall('SET', fenceKey, fence)
end
rcall('SET', ownerKey, owner, 'PX', ARGV[2])
rcall('SET', intoKey, ARGV[7], 'PX', ARGV[8])

local unmark = {}
if holder == owner and ARGV[4] == '1' then
  rcall('DEL', unmarkKey)
else
  unmark = rcall('SMEMBERS', unmarkKey)
end

local waiting = rcall('ZCARD', timeoutKey)
if waiting > 0 then
  if rcall('EXISTS', pendingKey) == 0 then
    rcall('RENAME', timeoutKey, pendingKey)
    -- RENAME carries a time to live the application gave Redisson's keys (RDelayedQueue.expire): the pending set,
    -- which values of the destination list and later offers join, must not expire before it is migrated
    rcall('PERSIST', pendingKey)
    rcall('UNLINK', orderKey)
  elseif waiting <= batch and #rcall('ZRANGE', timeoutKey, 0, 0)[1] * waiting <= batchBytes then
    -- its first member says whether the set may fit the batch bytes: one that will not is not read again each step
    local members = readWithin(timeoutKey, waiting, batchBytes)
    -- beyond the batch bytes, the members wait to be taken over whole (RENAME) once the pending set is migrated
    if #members / 2 == waiting then
      for i = 1, #members, 2 do
        rcall('ZADD', pendingKey, members[i + 1], members[i])
      end
      rcall('DEL', timeoutKey, orderKey)
    end
  end
end

local bytes, now = 0, nil
for _ = 1, batch do
  if bytes >= batchBytes then
    break
  end
  local value = rcall('LPOP', targetKey)
  if not value then
    break
  end
  if not now then
    local time = rcall('TIME')
    now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  end
  -- the legacy queue's name too: values of two queues migrated into one must not share an id
  local id = MIGRATED .. targetKey .. ':' .. rcall('INCR', sequenceKey)
  rcall('ZADD', pendingKey, now, struct.pack('Bc0Lc0', string.len(id), id, string.len(value), value))
  bytes = bytes + #value
end

local reply = counts(1)
reply[5] = fence
reply[6] = #unmark
for _, id in ipairs(unmark) do
  reply[#reply + 1] = id
end
local members = readWithin(pendingKey, batch, batchBytes)
if #members > 0 then
  -- with GET and SET only, the commands the migration's ACL rules grant already
  rcall('SET', intoKey, ARGV[7])
end
for i = 1, #members, 2 do
  reply[#reply + 1] = members[i]
  reply[#reply + 1] = tonumber(members[i + 1])
  reply[#reply + 1] = valueOf(members[i])
end
return reply
