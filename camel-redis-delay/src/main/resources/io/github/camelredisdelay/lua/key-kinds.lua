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
  What each of the queue's keys holds, for the scripts that check it before they write (see LuaScript.java); uses
  prelude.lua. A value of another type written under one of the names (by another application or by hand) makes Redis
  refuse the queue's commands on that key with a WRONGTYPE that names no key, and a script that wrote before such a
  command would keep part of its change: the transfer, say, would take messages out of the due set that never reach
  the ready stream. The due set's buckets (due-set.lua) are keys too, one per 64 messages: the transfer reads each
  with redis.pcall and stops before one Redis refuses, naming it with namingKey; a schedule looks up the buckets its
  messages go to, and checks the other keys it writes, before it writes anything (schedule.lua). Uses due-set.lua,
  which comes first.
]]

-- Each key with a command that answers in O(1) for what the queue keeps there, and WRONGTYPE for anything else
local INDEX_KIND = 'the index of its due set, a sorted set'
local MSG_KIND = 'its messages, a hash'
local READY_KIND = 'its ready messages, a stream'
local FAIL_KIND = 'its failure notes, a hash'
local BUCKET_KIND = 'a bucket of its due set, a sorted set'
local KEY_KINDS = {
  {dueKey, 'ZCARD', INDEX_KIND},
  {msgKey, 'HLEN', MSG_KIND},
  {readyKey, 'XLEN', READY_KIND},
  {failKey, 'HLEN', FAIL_KIND},
}

-- The error reply of a command Redis refused on key: a WRONGTYPE, which names no key, names key and what the queue keeps
-- there (kind); another error passes as it is.
local function namingKey(refusal, key, kind)
  if string.find(refusal.err, '^WRONGTYPE') then
    return redis.error_reply('WRONGTYPE key ' .. key .. ' holds a value of another type than ' .. kind
      .. ': every write of the queue to it fails until that value is removed')
  end
  return refusal
end

-- Runs a command that reads key, which should hold kind: returns a WRONGTYPE error reply naming key when Redis refuses
-- it for a value of another type, else nil and the command's reply.
local function refusedOn(key, kind, ...)
  local reply = redis.pcall(...)
  if type(reply) == 'table' and reply.err and string.find(reply.err, '^WRONGTYPE') then
    return namingKey(reply, key, kind)
  end
  return nil, reply
end

-- A WRONGTYPE error reply naming the first of the queue's keys that holds a value of another type than the queue keeps
-- there, or nil when each holds its kind or nothing.
local function foreignValue()
  for _, kind in ipairs(KEY_KINDS) do
    local foreign = refusedOn(kind[1], kind[3], kind[2], kind[1])
    if foreign then
      return foreign
    end
  end
  return nil
end

-- A WRONGTYPE error reply naming the due set's bucket called name (due-set.lua) when it holds a value of another type,
-- else nil and the bucket's size (nil for no name).
local function foreignBucket(name)
  if not name then
    return nil
  end
  local key = bucketKey(dueKey, name)
  return refusedOn(key, BUCKET_KIND, 'ZCARD', key)
end
