-- Keyed read-write locks: readers in a sorted set scored by lease expiry (millis); the writer,
-- its lease expiry and the fencing counter in one state hash, so a write grant is one write.

-- The writer holding the lock now, or nil; an expired writer's mark is dropped.
local function live_writer(state, now)
  local writer = redis.call('HMGET', state, 'writer', 'writer_until')
  if not writer[1] then
    return nil
  end
  if tonumber(writer[2]) > now then
    return writer[1]
  end
  redis.call('HDEL', state, 'writer', 'writer_until')
  return nil
end

-- A write grant takes the next fencing token. A fresh key starts the counter at the server's
-- clock in microseconds, so tokens keep growing after the key expired when idle.
local function grant_write(state, member, expiry, last_fence, now_micros)
  local token = last_fence and tonumber(last_fence) + 1 or now_micros
  redis.call('HSET', state, 'writer', member, 'writer_until', int(expiry), 'fence', int(token))
  return token
end

-- A reader carries the token of the last write.
local function grant_read(readers, state, member, expiry)
  redis.call('ZADD', readers, int(expiry), member)
  return tonumber(redis.call('HGET', state, 'fence') or '0')
end

-- Drops expired holders, then grants queued requests from the head while the lock allows: a run
-- of readers together, or one writer; a writer at the head holds back every reader behind it.
local function hand_over_locks(readers, state, queue, waiters, now, now_micros, prefix)
  redis.call('ZREMRANGEBYSCORE', readers, '-inf', now)
  if live_writer(state, now) then
    return
  end
  while true do
    local member, mode, expiry = queue_head(queue, waiters, now)
    if not member then
      return
    end
    if mode == 'W' then
      if redis.call('ZCARD', readers) > 0 then
        return
      end
      dequeue_head(queue, waiters, member)
      local token = grant_write(state, member, expiry, redis.call('HGET', state, 'fence'), now_micros)
      keep_alive(state, expiry - now)
      wake(prefix, member, token)
      return
    end
    dequeue_head(queue, waiters, member)
    local token = grant_read(readers, state, member, expiry)
    keep_alive(readers, expiry - now)
    wake(prefix, member, token)
  end
end

-- Whether the member holds the lock now, and its token.
local function held_token(readers, state, member)
  if redis.call('HGET', state, 'writer') == member or redis.call('ZSCORE', readers, member) then
    return tonumber(redis.call('HGET', state, 'fence') or '0')
  end
  return nil
end
