-- Withdraws a queued lock request, or gives it up (lib/lock_steps.lua, lock_cancel).
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix, release a grant ('1'), lease
-- millis (with a release: how long a late acquire is refused).
return lock_cancel(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3] == '1',
  tonumber(ARGV[4]))
