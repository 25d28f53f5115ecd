-- Releases a lock on one key (lib/lock_steps.lua, lock_release).
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
return lock_release(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2])
