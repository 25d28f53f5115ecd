-- Keyed read-write locks: readers in a sorted set scored by lease expiry (millis); the writer,
-- its lease expiry, the fencing counter and every holder's grant time (lib/since.lua) in one state
-- hash, so a write grant is one write.
--
-- Fencing tokens grow strictly per key, across expiry and failover: a write grant takes
-- max(last token + 1, server clock in micros), so a counter that expired with an idle key, or a
-- replica promoted without the last write of it, still hands out a token above every earlier one
-- (as long as the servers' clocks do not step back by more than a failover takes). A reader gets
-- the token of the last write; a read grant keeps the state hash alive, and on a key with no
-- recorded write it records a token taken the same way, so no reader ever gets 0.

-- The writer holding the lock now, or nil; an expired writer's mark is dropped.
local function live_writer(state, now)
  local writer = redis.call('HMGET', state, 'writer', 'writer_until')
  if not writer[1] then
    return nil
  end
  if tonumber(writer[2]) > now then
    return writer[1]
  end
  redis.call('HDEL', state, 'writer', 'writer_until', 'since:' .. writer[1])
  return nil
end

local function grant_write(state, member, expiry, last_fence, now_micros)
  local token = now_micros
  if last_fence then
    token = math.max(tonumber(last_fence) + 1, now_micros)
  end
  redis.call('HSET', state, 'writer', member, 'writer_until', int(expiry), 'fence', int(token),
    'since:' .. member, int(now_micros))
  return token
end

-- The token a reader carries: the last write's, or one recorded now when the key has none.
local function read_token(state, fence, now_micros)
  if fence then
    return tonumber(fence)
  end
  redis.call('HSET', state, 'fence', int(now_micros))
  return now_micros
end

-- (a member that reads already only has its lease set again, and keeps its grant time)
local function grant_read(readers, state, member, expiry, fence, now_micros, lease)
  if redis.call('ZADD', readers, int(expiry), member) == 1 then
    record_since(state, member, now_micros)
  end
  local token = read_token(state, fence, now_micros)
  keep_alive(state, lease)
  return token
end

-- Drops expired holders, then grants queued requests from the head while the lock allows: a run
-- of readers together, or one writer; a writer at the head holds back every reader behind it.
local function hand_over_locks(readers, state, queue, waiters, now, now_micros, prefix)
  drop_expired(readers, state, now)
  if live_writer(state, now) then
    return
  end
  while true do
    local member, mode, expiry, secret = queue_head(queue, waiters, state, now)
    if not member then
      return
    end
    if mode == 'W' then
      if redis.call('ZCARD', readers) > 0 then
        return
      end
      withdraw(queue, waiters, state, member)
      local token = grant_write(state, member, expiry, redis.call('HGET', state, 'fence'), now_micros)
      keep_alive(state, expiry - now)
      wake(prefix, member, token, secret)
      return
    end
    withdraw(queue, waiters, state, member)
    local token = grant_read(readers, state, member, expiry, redis.call('HGET', state, 'fence'),
      now_micros, expiry - now)
    keep_alive(readers, expiry - now)
    wake(prefix, member, token, secret)
  end
end

-- The member's token when it holds the lock now, else nil ('W' or 'R' second: what it holds).
local function held_token(readers, state, member, now_micros)
  if redis.call('HGET', state, 'writer') == member then
    return tonumber(redis.call('HGET', state, 'fence')), 'W'
  end
  if redis.call('ZSCORE', readers, member) then
    return read_token(state, redis.call('HGET', state, 'fence'), now_micros), 'R'
  end
  return nil
end

-- Takes back what the member holds, with its grant time; whether it held anything.
local function drop_holder(readers, state, member)
  if redis.call('HGET', state, 'writer') == member then
    redis.call('HDEL', state, 'writer', 'writer_until', 'since:' .. member)
    return true
  end
  if redis.call('ZREM', readers, member) == 0 then
    return false
  end
  drop_since(state, member)
  return true
end
