-- Withdraws a queued request. Returns {1, 0} when the permit was handed over meanwhile (the
-- caller holds it), {-1, 0} when it was withdrawn.
-- KEYS: holders, queue, waiters. ARGV: member.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
withdraw(queue, waiters, ARGV[1])
if redis.call('ZSCORE', holders, ARGV[1]) then
  return {1, 0}
end
return {-1, 0}
