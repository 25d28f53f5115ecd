-- Takes a lock on one key (lib/lock_steps.lua, lock_acquire).
-- KEYS: readers, state, queue, waiters. ARGV: member, mode (R|W), lease millis, may queue ('1'),
-- key prefix, wake-up secret of the member's JVM.
return lock_acquire(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], tonumber(ARGV[3]),
  ARGV[4] == '1', ARGV[5], ARGV[6])
