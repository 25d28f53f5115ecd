-- Takes a lock on one key when its mode allows and nobody waits ahead; otherwise queues the request
-- (ARGV[4] = '1') or rejects it. Returns {1, token} granted, {0, 0} queued, {-1, 0} rejected.
-- KEYS: readers, state, queue, waiters. ARGV: member, mode (R|W), lease millis, may queue, prefix.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member, mode, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
local held = redis.call('HMGET', state, 'writer', 'fence')
if not held[1] then
  -- no writer mark: a writer needs no readers either; a reader only an empty queue (a queued
  -- writer goes first). Room means an empty queue, so this is the whole decision.
  if mode == 'W' then
    if redis.call('ZCARD', readers) == 0 then
      local token = grant_write(state, member, now + lease, held[2], now_micros)
      expire_after(state, lease, not held[2])
      return {1, token}
    end
  elseif redis.call('LLEN', queue) == 0 then
    redis.call('ZADD', readers, int(now + lease), member)
    keep_alive(readers, lease)
    return {1, tonumber(held[2] or '0')}
  end
end
-- contended, or holders expired: reclaim what expired, serve the queue, then judge
hand_over_locks(readers, state, queue, waiters, now, now_micros, ARGV[5])
if redis.call('LLEN', queue) == 0 and not live_writer(state, now) then
  if mode == 'R' then
    local token = grant_read(readers, state, member, now + lease)
    keep_alive(readers, lease)
    return {1, token}
  end
  if redis.call('ZCARD', readers) == 0 then
    local token = grant_write(state, member, now + lease, redis.call('HGET', state, 'fence'), now_micros)
    keep_alive(state, lease)
    return {1, token}
  end
end
if ARGV[4] == '1' then
  enqueue(queue, waiters, member, mode, now + lease, lease)
  return {0, 0}
end
return {-1, 0}
