-- Takes a bulkhead permit when one is free and nobody waits ahead; otherwise queues the request
-- (ARGV[4] = '1') or rejects it. Returns {1, 0} granted, {0, 0} queued, {-1, 0} rejected.
-- KEYS: holders, queue, waiters. ARGV: member, limit, lease millis, may queue, key prefix.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
local member, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local now = math.floor(server_micros() / 1000)
local count = redis.call('ZCARD', holders)
if count >= limit then
  -- full, unless holders expired: reclaim them for the queue first, then judge
  count = hand_over_permits(holders, queue, waiters, limit, now, ARGV[5])
end
if count < limit then
  redis.call('ZADD', holders, int(now + lease), member)
  expire_after(holders, lease, count == 0)
  return {1, 0}
end
if ARGV[4] == '1' then
  enqueue(queue, waiters, member, 'P', now + lease, lease)
  return {0, 0}
end
return {-1, 0}
