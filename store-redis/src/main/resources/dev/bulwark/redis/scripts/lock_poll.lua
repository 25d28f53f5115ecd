-- The state of a queued lock request; grants what expired holders allow first.
-- Returns the token (> 0) held, 0 still queued, -1 unknown
-- (never queued, withdrawn, or its lease ran out).
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
local now_micros = server_micros()
hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
local token = held_token(readers, state, member, now_micros)
if token then
  return token
end
if queued_live(queue, waiters, state, member, math.floor(now_micros / 1000)) then
  return 0
end
return -1
