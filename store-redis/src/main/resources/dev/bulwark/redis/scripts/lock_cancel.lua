-- Withdraws a queued lock request; a withdrawn writer may let the readers behind it in.
-- Returns {1, token} when it had been granted meanwhile (the caller holds it), else {-1, 0}.
-- KEYS: holders, state, queue, waiters. ARGV: member, key prefix.
local holders, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
withdraw(queue, waiters, member)
if redis.call('ZSCORE', holders, member) then
  return {1, fence(state)}
end
local now_micros = server_micros()
hand_over_locks(holders, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
return {-1, 0}
