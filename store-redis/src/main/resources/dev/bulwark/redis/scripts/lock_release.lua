-- Releases a lock on one key and grants what the head of its queue now allows.
-- Returns 1 released, 0 when the member held nothing: a re-sent release changes nothing.
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if not drop_holder(readers, state, ARGV[1]) then
  return 0
end
if redis.call('EXISTS', queue) == 1 then
  local now_micros = server_micros()
  hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
end
return 1
