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
  Helpers for the scripts that keep the due set (see LuaScript.java); they use prelude.lua.
]]

--[[
  The due set: scheduled message ids by due time, kept in small sorted sets ("buckets", key "<due>:<name>") of at
  most BUCKET_SIZE entries, which Redis stores in its compact listpack encoding (up to zset-max-listpack-entries,
  128 by default): about 40 bytes per message instead of about 120 in one large sorted set. Adding to a listpack
  takes time linear in its size, hence half the server's limit. The index
  (key "<due>") holds each bucket's name scored by its lower bound. Bounds are distinct, and every entry of a
  bucket lies between its own bound (inclusive) and the next bucket's (exclusive); so the buckets in index order
  hold the due times in order, and the bucket of a due time is the one with the greatest bound not above it.
  A bucket is never empty: one that becomes empty leaves the index. See docs/design-notes.md.
]]
local BUCKET_SIZE = 64

local function bucketKey(dueKey, name)
  return dueKey .. ':' .. name
end

-- A due time (or bound) as Redis is given it: an integer in decimal. Numbers passed to redis.call as they are,
-- and scores in replies, are converted with "%.17g", which costs several times as much.
local function decimal(dueAt)
  return string.format('%d', dueAt)
end

-- The bucket that holds, or would hold, due time dueAt (decimal), and whether it is the first bucket; nil when
-- dueAt lies before every bucket.
local function bucketOf(dueKey, dueAt)
  local found = rcall('ZREVRANGEBYSCORE', dueKey, dueAt, '-inf', 'LIMIT', '0', '2')
  return found[1], #found == 1
end

-- Buckets looked up since the index last changed, remembered for the rest of the script call: for a due time, the
-- bucket it goes to (bucketFor), whether that is the first bucket (firstFor) and the due time in decimal (scoreFor);
-- for a bucket, its size (sizeOf). Messages scheduled in one call (a batch, or concurrent schedules sharing a call)
-- mostly share their due times, and schedule.lua looks up the bucket of each before it writes; this spares addDue the
-- index lookup, ZCARD and formatting the due time again. Whatever changes the index, or moves entries between buckets,
-- forgets them all.
local bucketFor, firstFor, scoreFor, sizeOf = {}, {}, {}, {}

local function forgetBuckets()
  bucketFor, firstFor, scoreFor, sizeOf = {}, {}, {}, {}
end

-- Remembers bucket name, of size count, as the one due time dueAt (score: in decimal) goes to, and whether it is the
-- first bucket; a full one is not remembered for the due time (the next addDue makes room). Only for a look-up since
-- which the index did not change.
local function rememberBucket(name, first, dueAt, score, count)
  sizeOf[name] = count
  if count < BUCKET_SIZE then
    bucketFor[dueAt], firstFor[dueAt], scoreFor[dueAt] = name, first, score
  end
end

-- Adds a bucket with lower bound bound to the index and returns its name: the bound, made unique when a bucket
-- created at the same bound is still there (its bound was lowered since), or when a key under the name holds a value
-- that is no bucket of the index (another application's): a new bucket never takes over a key, and Redis never
-- refuses its first write after the script stored a record.
local function newBucket(dueKey, bound)
  local score = decimal(bound)
  local name = score
  local suffix = 0
  while rcall('ZSCORE', dueKey, name) or rcall('EXISTS', bucketKey(dueKey, name)) == 1 do
    suffix = suffix + 1
    name = string.format('%d.%d', bound, suffix)
  end
  rcall('ZADD', dueKey, score, name)
  return name
end

-- Moves the entries of the bucket at key from rank k on, given as ZADD's arguments (moving), to a new bucket with lower
-- bound bound, and returns the new bucket's name.
local function splitOff(dueKey, key, k, bound, moving)
  local upper = newBucket(dueKey, bound)
  rcall('ZADD', bucketKey(dueKey, upper), unpack(moving))
  rcall('ZREMRANGEBYRANK', key, k, -1)
  return upper
end

-- Makes room in the full bucket name, of count entries, for due time dueAt and returns the bucket dueAt goes to. A
-- due time after all its entries starts a new bucket. Otherwise the entries from a change of due time on move to a
-- new bucket: the change nearest to where dueAt goes if that is in the upper half, else nearest the middle. Ever
-- later due times, the common case, thus leave (nearly) full buckets behind. Entries that all share one due time
-- cannot be split: the bucket grows past BUCKET_SIZE (Redis holds it in its ordinary encoding) and, once past, is
-- never read whole again.
local function makeRoom(dueKey, name, count, dueAt)
  local key = bucketKey(dueKey, name)
  local score = decimal(dueAt)
  if rcall('ZCOUNT', key, '(' .. score, '+inf') == 0 then
    -- dueAt at or after every entry, the common case: the change nearest to where it goes is where the entries of its
    -- own due time begin. They are read without their scores, which cost most of reading a whole bucket; a bucket past
    -- BUCKET_SIZE (a run of one due time, perhaps behind earlier ones) is not split
    local ties = rcall('ZCOUNT', key, score, score)
    if ties == 0 then
      return newBucket(dueKey, dueAt)
    end
    if ties == count or count > BUCKET_SIZE then
      return name
    end
    local moving = {}
    for _, id in ipairs(rcall('ZRANGE', key, count - ties, -1)) do
      moving[#moving + 1] = score
      moving[#moving + 1] = id
    end
    return splitOff(dueKey, key, count - ties, dueAt, moving)
  end
  if count > BUCKET_SIZE then
    return name
  end
  local entries = rcall('ZRANGE', key, 0, -1, 'WITHSCORES')
  local function dueOfEntry(k)
    return tonumber(entries[2 * k + 2])
  end
  local target = math.floor(count / 2)
  while target < count and dueOfEntry(target) <= dueAt do
    target = target + 1
  end
  for offset = 0, count do
    for _, k in ipairs({target + offset, target - offset}) do
      if k >= 1 and k < count and dueOfEntry(k - 1) < dueOfEntry(k) then
        local moving = {}
        for j = k, count - 1 do
          moving[#moving + 1] = entries[2 * j + 2]
          moving[#moving + 1] = entries[2 * j + 1]
        end
        local upper = splitOff(dueKey, key, k, dueOfEntry(k), moving)
        return dueAt >= dueOfEntry(k) and upper or name
      end
    end
  end
  return name
end

-- Adds message id with due time dueAt to the due set. Returns the bucket it went to if that is the first one (the
-- only one that can hold the earliest due time), else nil.
local function addDue(dueKey, id, dueAt)
  local name = bucketFor[dueAt]
  if name and sizeOf[name] < BUCKET_SIZE then
    rcall('ZADD', bucketKey(dueKey, name), scoreFor[dueAt], id)
    sizeOf[name] = sizeOf[name] + 1
    return firstFor[dueAt] and name or nil
  end
  local score = decimal(dueAt)
  local first
  name, first = bucketOf(dueKey, score)
  if name then
    local count = rcall('ZCARD', bucketKey(dueKey, name))
    if count >= BUCKET_SIZE then
      -- makeRoom may add a bucket and move entries to it
      forgetBuckets()
      local target = makeRoom(dueKey, name, count, dueAt)
      first = first and target == name
      name = target
    else
      rememberBucket(name, first, dueAt, score, count + 1)
    end
  else
    -- the first bucket's bound is lowered to dueAt, or a new bucket comes first
    forgetBuckets()
    first = true
    name = rcall('ZRANGE', dueKey, 0, 0)[1]
    if name and rcall('ZCARD', bucketKey(dueKey, name)) < BUCKET_SIZE then
      rcall('ZADD', dueKey, score, name)
    else
      name = newBucket(dueKey, dueAt)
    end
  end
  rcall('ZADD', bucketKey(dueKey, name), score, id)
  return first and name or nil
end

-- Takes message id, due at dueAt, out of the due set. Returns false when it is not there (ready, in flight, gone).
local function removeDue(dueKey, id, dueAt)
  forgetBuckets()
  local name = bucketOf(dueKey, decimal(dueAt))
  if not name or rcall('ZREM', bucketKey(dueKey, name), id) == 0 then
    return false
  end
  if rcall('EXISTS', bucketKey(dueKey, name)) == 0 then
    rcall('ZREM', dueKey, name)
  end
  return true
end

-- Whether message id, due at dueAt, is in the due set.
local function isDue(dueKey, id, dueAt)
  local name = bucketOf(dueKey, decimal(dueAt))
  return name ~= nil and rcall('ZSCORE', bucketKey(dueKey, name), id) ~= false
end

-- The earliest due time in the due set, or nil when it is empty.
local function earliestDue(dueKey)
  local name = rcall('ZRANGE', dueKey, 0, 0)[1]
  if not name then
    return nil
  end
  return tonumber(rcall('ZRANGE', bucketKey(dueKey, name), 0, 0, 'WITHSCORES')[2])
end

-- Makes a stored message due: into the due set, or straight into the ready stream when the due time has come. The
-- message must not be in the due set already (a replaced one is taken out first). Returns what addDue returns, or
-- nil for a message made ready.
local function makeDue(dueKey, readyKey, id, record, dueAt, now)
  if dueAt <= now then
    addReady(FIELD_ID, id, FIELD_RECORD, record)
    return nil
  end
  return addDue(dueKey, id, dueAt)
end

-- Tells the transfer tasks, through the wake channel, the delay to a due time just added to firstBucket (as
-- addDue returned it) if no due time is earlier. A due time that did not go to the first bucket is not the earliest:
-- the transfer tasks are timed for an earlier one, and find this one when they run for it.
local function wakeIfEarliest(dueKey, dueAt, firstBucket, now, wake)
  if firstBucket
      and rcall('ZCOUNT', bucketKey(dueKey, firstBucket), '-inf', '(' .. decimal(dueAt)) == 0 then
    rcall('PUBLISH', wake, decimal(math.max(0, dueAt - now)))
  end
end
