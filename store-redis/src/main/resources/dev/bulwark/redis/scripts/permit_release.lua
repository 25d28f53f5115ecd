-- Releases a permit and hands what is free to the head of the queue, waking exactly those waiters.
-- KEYS: holders, queue, waiters. ARGV: member, limit, key prefix.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
redis.call('ZREM', holders, ARGV[1])
if redis.call('LLEN', queue) == 0 then
  return 0
end
local now = math.floor(server_micros() / 1000)
return hand_over_permits(holders, queue, waiters, tonumber(ARGV[2]), now, ARGV[3])
