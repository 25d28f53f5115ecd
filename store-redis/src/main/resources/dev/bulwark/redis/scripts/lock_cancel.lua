-- Withdraws a queued lock request; a withdrawn writer may let the readers behind it in.
-- Returns {1, token} when it had been granted meanwhile (the caller holds it), else {-1, 0}.
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
withdraw(queue, waiters, member)
local token = held_token(readers, state, member)
if token then
  return {1, token}
end
local now_micros = server_micros()
hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
return {-1, 0}
