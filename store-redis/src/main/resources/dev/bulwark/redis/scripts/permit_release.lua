-- Releases a bulkhead permit (lib/permit_steps.lua, permit_release).
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, key prefix.
return permit_release(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]), ARGV[3])
