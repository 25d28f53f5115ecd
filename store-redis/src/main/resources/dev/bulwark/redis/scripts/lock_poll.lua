-- The state of a queued lock request (lib/lock_steps.lua, lock_poll).
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
return lock_poll(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2])
