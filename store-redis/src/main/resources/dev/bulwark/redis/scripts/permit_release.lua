-- Releases a permit and hands what is free to the head of the queue, waking exactly those waiters.
-- Returns 1 released, 0 when the member held nothing: a re-sent release changes nothing.
-- KEYS: holders, queue, waiters. ARGV: member, limit, key prefix.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
if redis.call('ZREM', holders, ARGV[1]) == 0 then
  return 0
end
if redis.call('EXISTS', queue) == 1 then
  local now = math.floor(server_micros() / 1000)
  hand_over_permits(holders, queue, waiters, tonumber(ARGV[2]), now, ARGV[3])
end
return 1
