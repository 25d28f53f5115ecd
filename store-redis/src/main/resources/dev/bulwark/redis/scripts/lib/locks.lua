-- Keyed read-write locks: holders (readers and the writer) in a sorted set scored by lease
-- expiry (millis); a state hash names the writer and keeps the fencing counter.

-- Drops expired holders, and the writer mark when the writer was one of them.
local function prune_lock(holders, state, now)
  if redis.call('ZREMRANGEBYSCORE', holders, '-inf', now) > 0 then
    local writer = redis.call('HGET', state, 'writer')
    if writer and not redis.call('ZSCORE', holders, writer) then
      redis.call('HDEL', state, 'writer')
    end
  end
end

local function lock_free_for(holders, state, mode)
  if mode == 'W' then
    return redis.call('ZCARD', holders) == 0
  end
  return redis.call('HEXISTS', state, 'writer') == 0
end

-- The token a holder carries: a writer's own grant number, a reader's the last write's.
local function fence(state)
  return tonumber(redis.call('HGET', state, 'fence') or '0')
end

-- Grants the lock; a write grant takes the next fencing token. A fresh key starts the counter at
-- the server's clock in microseconds, so tokens keep growing after the key expired when idle.
local function grant_lock(holders, state, member, mode, expiry, now, now_micros)
  redis.call('ZADD', holders, int(expiry), member)
  keep_alive(holders, expiry - now)
  local token
  if mode == 'W' then
    local last = redis.call('HGET', state, 'fence')
    token = last and tonumber(last) + 1 or now_micros
    redis.call('HSET', state, 'writer', member, 'fence', int(token))
  else
    token = fence(state)
  end
  keep_alive(state, expiry - now)
  return token
end

-- Grants queued requests from the head while the lock allows: a run of readers together, or one
-- writer; a writer at the head holds back every reader behind it.
local function hand_over_locks(holders, state, queue, waiters, now, now_micros, prefix)
  prune_lock(holders, state, now)
  while true do
    local member, mode, expiry = queue_head(queue, waiters, now)
    if not member or not lock_free_for(holders, state, mode) then
      return
    end
    dequeue_head(queue, waiters, member)
    wake(prefix, member, grant_lock(holders, state, member, mode, expiry, now, now_micros))
  end
end
