-- Takes a bulkhead permit when one is free and nobody waits ahead; otherwise queues the request
-- (ARGV[4] = '1') or rejects it. Returns 1 granted, 0 queued, -1 rejected; a member that already
-- holds or waits (a re-sent call) gets 1 or 0 again and changes nothing.
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, lease millis, may queue, key prefix,
-- wake-up secret of the member's JVM.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
if take_given_up(state, member) then
  return -1 -- its caller gave it up already (lib/given_up.lua): nobody would use the permit
end
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
local count = redis.call('ZCARD', holders)
if count >= limit or (count == 0 and redis.call('EXISTS', queue) == 1) then
  -- full, or the holders' key expired under waiters: reclaim expired holders for the queue, then
  -- judge; a re-sent call finds its member holding or waiting
  count = hand_over_permits(holders, queue, waiters, state, limit, now_micros, ARGV[5])
  if holds_permit(holders, member, now) then
    return 1
  end
  if is_queued(waiters, member) then
    return 0
  end
end
if count < limit then
  -- a member that holds already only has its lease set again, and keeps its grant time
  if redis.call('ZADD', holders, int(now + lease), member) == 1 then
    record_since(state, member, now_micros)
  end
  expire_after(holders, lease, count == 0)
  keep_alive(state, lease)
  return 1
end
if ARGV[4] == '1' then
  enqueue(queue, waiters, state, member, 'P', now + lease, lease, ARGV[6])
  return 0
end
return -1
