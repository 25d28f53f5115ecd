-- Withdraws a queued bulkhead request, or gives it up (lib/permit_steps.lua, permit_cancel).
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, key prefix, release a grant ('1'),
-- lease millis (with a release: how long a late acquire is refused).
return permit_cancel(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]), ARGV[3],
  ARGV[4] == '1', tonumber(ARGV[5]))
