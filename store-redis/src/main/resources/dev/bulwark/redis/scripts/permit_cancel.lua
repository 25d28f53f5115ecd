-- Withdraws a queued request, then hands over what expired holders freed (as every script does).
-- Returns {1, 0} when the permit was handed over meanwhile (the caller holds it), {-1, 0} when it
-- was withdrawn. KEYS: holders, queue, waiters. ARGV: member, limit, key prefix.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
local member = ARGV[1]
withdraw(queue, waiters, member)
if redis.call('ZSCORE', holders, member) then
  return {1, 0}
end
local now = math.floor(server_micros() / 1000)
hand_over_permits(holders, queue, waiters, tonumber(ARGV[2]), now, ARGV[3])
return {-1, 0}
