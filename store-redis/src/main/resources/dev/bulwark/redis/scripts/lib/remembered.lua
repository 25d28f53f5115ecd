-- Follows a script whose body was wrapped in reserve() (LuaScript.loadRemembered): a reservation
-- re-sent by the client must not take a second slot. Jedis' Cluster executor re-sends a command
-- after a connection error or a read timeout, when the first may have run. So each reply is kept
-- under its JVM and call number, and a call that arrives again gets that reply instead of a new
-- reservation. Only calls the JVM still waits for can be re-sent, so the hash is kept to those:
-- each call carries the lowest number its JVM still waits for on this limit, and the replies
-- below it are dropped. Per JVM that leaves its calls in flight plus one marker field.
-- KEYS[2] (optional): the limit's remembered replies. ARGV[4]: the JVM's instance id; ARGV[5]:
-- the call's number (per JVM and limit, from 1 up); ARGV[6]: the lowest number of that JVM's calls
-- on this limit that still wait for their reply.
-- A batch of reservations (rate_batch.lua) is one call: its reply, a list, is kept as one field.
-- Fields: '<instance>:<call>' the reply of that call ('<n>', or 'L<n>,<n>,...' for a batch's
-- list); '<instance>' '<lowest kept>:<last call ms>'.
local function remembered_text(reply)
  if type(reply) == 'number' then
    return int(reply)
  end
  local parts = {}
  for i, value in ipairs(reply) do
    parts[i] = int(value)
  end
  return 'L' .. table.concat(parts, ',')
end

local function remembered_reply(text)
  if string.sub(text, 1, 1) ~= 'L' then
    return tonumber(text)
  end
  local reply = {}
  for value in string.gmatch(string.sub(text, 2), '[^,]+') do
    reply[#reply + 1] = tonumber(value)
  end
  return reply
end

local replies, jvm = KEYS[2], ARGV[4]
if not replies then
  return reserve()
end
local call, oldest = tonumber(ARGV[5]), tonumber(ARGV[6])
local field = jvm .. ':' .. ARGV[5]
local last = redis.call('HGET', replies, field)
if last then
  return remembered_reply(last)
end
local now_ms = math.floor(server_micros() / 1000)
local kept = redis.call('HGET', replies, jvm)
local low = oldest
if kept then
  low = tonumber(string.match(kept, '^(%d+):'))
end
if call < low then
  -- its JVM stopped waiting for it (the reply was lost, the caller told of a failure): a call that
  -- arrives this late must not take a slot nobody uses; nobody reads this reply
  return -1
end
for id = low, oldest - 1 do
  redis.call('HDEL', replies, jvm .. ':' .. id)
end
local reply = reserve()
if type(reply) == 'number' or (type(reply) == 'table' and not reply.err) then
  redis.call('HSET', replies, field, remembered_text(reply), jvm,
    int(math.max(low, oldest)) .. ':' .. now_ms)
  redis.call('PEXPIRE', replies, 60000)
  if call % 64 == 0 then
    -- now and then, forget JVMs silent for a minute (ended ones): their fields would stay as long
    -- as other JVMs keep the hash alive
    local fields = redis.call('HGETALL', replies)
    local silent = {}
    for i = 1, #fields, 2 do
      if not string.find(fields[i], ':', 1, true)
          and tonumber(string.match(fields[i + 1], ':(%d+)$')) < now_ms - 60000 then
        silent[fields[i]] = true
      end
    end
    if next(silent) then
      for i = 1, #fields, 2 do
        if silent[string.match(fields[i], '^[^:]+')] then
          redis.call('HDEL', replies, fields[i])
        end
      end
    end
  end
end
return reply
