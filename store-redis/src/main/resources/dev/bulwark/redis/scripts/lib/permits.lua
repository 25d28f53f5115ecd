-- Bulkhead permits: holders in a sorted set scored by lease expiry (millis), their grant times in
-- the bulkhead's state hash (lib/since.lua).

-- Drops expired holders and hands free permits to the queue's head; returns the holder count,
-- which is below the limit only when the queue is empty. A handed-over permit keeps the waiter's
-- lease, which its JVM has been renewing.
local function hand_over_permits(holders, queue, waiters, state, limit, now_micros, prefix)
  local now = math.floor(now_micros / 1000)
  drop_expired(holders, state, now)
  local count = redis.call('ZCARD', holders)
  while count < limit do
    local member, _, expiry, secret = queue_head(queue, waiters, state, now)
    if not member then
      break
    end
    withdraw(queue, waiters, state, member)
    redis.call('ZADD', holders, int(expiry), member)
    keep_alive(holders, expiry - now)
    record_since(state, member, now_micros)
    keep_alive(state, expiry - now)
    wake(prefix, member, 0, secret)
    count = count + 1
  end
  return count
end

-- Takes the member's permit back (with its grant time); whether it held one.
local function drop_permit(holders, state, member)
  if redis.call('ZREM', holders, member) == 0 then
    return false
  end
  drop_since(state, member)
  return true
end

-- Whether the member holds a live permit.
local function holds_permit(holders, member, now)
  local expiry = redis.call('ZSCORE', holders, member)
  return expiry and tonumber(expiry) > now
end
