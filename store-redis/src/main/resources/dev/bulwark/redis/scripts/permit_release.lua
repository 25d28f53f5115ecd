-- Releases a permit and hands what is free to the head of the queue, waking exactly those waiters.
-- Returns 1 released, 0 when the member held nothing: a re-sent release changes nothing.
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, key prefix.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if not drop_permit(holders, state, ARGV[1]) then
  return 0
end
if redis.call('EXISTS', queue) == 1 then
  hand_over_permits(holders, queue, waiters, state, tonumber(ARGV[2]), server_micros(), ARGV[3])
end
return 1
