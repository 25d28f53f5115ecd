-- The state of a queued request, for a waiter that may have missed its wake-up; hands over what
-- expired holders freed first. Returns 1 held, 0 still queued, -1 unknown
-- (never queued, withdrawn, or its lease ran out).
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, key prefix.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
hand_over_permits(holders, queue, waiters, state, tonumber(ARGV[2]), now_micros, ARGV[3])
if holds_permit(holders, member, now) then
  return 1
end
if queued_live(queue, waiters, state, member, now) then
  return 0
end
return -1
