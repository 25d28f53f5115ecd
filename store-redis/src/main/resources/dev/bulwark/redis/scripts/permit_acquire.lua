-- Takes a bulkhead permit (lib/permit_steps.lua, permit_acquire).
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, lease millis, may queue ('1'), key
-- prefix, wake-up secret of the member's JVM.
return permit_acquire(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]),
  tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5], ARGV[6])
