-- Takes a lock on one key when its mode allows and nobody waits ahead; otherwise queues the request
-- (ARGV[4] = '1') or rejects it. Returns the fencing token (> 0) granted, 0 queued, -1 rejected;
-- a member that already holds or waits (a re-sent call) gets its token or 0 again and changes
-- nothing.
-- KEYS: readers, state, queue, waiters. ARGV: member, mode (R|W), lease millis, may queue, key
-- prefix, wake-up secret of the member's JVM.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member, mode, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
if take_given_up(state, member) then
  return -1 -- its caller gave it up already (lib/given_up.lua): nobody would use the lock
end
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
local held = redis.call('HMGET', state, 'writer', 'fence')
if not held[1] and redis.call('EXISTS', queue) == 0 then
  -- no writer mark and nobody waiting: a reader may enter, a writer when no reader holds
  -- (a member that holds already only has its lease set again)
  if mode == 'R' then
    local token = grant_read(readers, state, member, now + lease, held[2], now_micros, lease)
    keep_alive(readers, lease)
    return token
  end
  if redis.call('ZCARD', readers) == 0 then
    local token = grant_write(state, member, now + lease, held[2], now_micros)
    expire_after(state, lease, not held[2])
    return token
  end
end
-- contended, or holders expired: reclaim what expired, serve the queue, then judge; a re-sent
-- call finds its member holding or waiting
hand_over_locks(readers, state, queue, waiters, now, now_micros, ARGV[5])
local token = held_token(readers, state, member, now_micros)
if token then
  return token
end
if is_queued(waiters, member) then
  return 0
end
if redis.call('EXISTS', queue) == 0 and not live_writer(state, now) then
  if mode == 'R' then
    token = grant_read(readers, state, member, now + lease, redis.call('HGET', state, 'fence'),
      now_micros, lease)
    keep_alive(readers, lease)
    return token
  end
  if redis.call('ZCARD', readers) == 0 then
    token = grant_write(state, member, now + lease, redis.call('HGET', state, 'fence'), now_micros)
    keep_alive(state, lease)
    return token
  end
end
if ARGV[4] == '1' then
  enqueue(queue, waiters, state, member, mode, now + lease, lease, ARGV[6])
  return 0
end
return -1
