-- A batch of one JVM's operations on the keys of one lock name (on a Cluster: on the keys of one
-- slot), applied one by one in order with the steps the single scripts use (lib/lock_steps.lua):
-- each gets the answer it would get sent alone in that order. Operation kinds as permit_batch.lua
-- says ('A' acquire that may queue, 'a' that may not, 'P' poll, 'C' cancel, 'R' release, 'G' give
-- up). Returns the answers in order (a token, 0 or -1; a release's 1 released, 0 not held), then,
-- as pairs of request id and token, the requests of this JVM the batch granted a lock to from a
-- queue, in order: the JVM wakes those waiters from the reply (their notices still follow).
-- KEYS: per lock key the batch touches, its readers, state, queue, waiters. ARGV: the JVM's
-- instance id, lease millis, key prefix, wake-up secret of the JVM, then per operation: its kind,
-- the lock key's number (1 for the first four KEYS, 2 for the next four, ...), the mode an acquire
-- asks for (R|W; '-' for the others), its request id.
local instance, lease, prefix, secret = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
for i = 5, #ARGV - 3, 4 do
  local key = tonumber(ARGV[i + 1])
  if not string.find('AaPCRG', ARGV[i], 1, true) or #ARGV[i] ~= 1 then
    return redis.error_reply('Bulwark: unknown batch operation ' .. ARGV[i])
  end
  if not key or key < 1 or 4 * key > #KEYS then
    return redis.error_reply('Bulwark: no keys for lock key number ' .. ARGV[i + 1])
  end
end
woken_of = instance
local replies = {}
for i = 5, #ARGV - 3, 4 do
  local kind, first, mode = ARGV[i], 4 * tonumber(ARGV[i + 1]) - 3, ARGV[i + 2]
  local readers, state, queue, waiters = KEYS[first], KEYS[first + 1], KEYS[first + 2],
    KEYS[first + 3]
  local member = instance .. ':' .. ARGV[i + 3]
  local reply
  if kind == 'A' or kind == 'a' then
    reply = lock_acquire(readers, state, queue, waiters, member, mode, lease, kind == 'A', prefix,
      secret)
  elseif kind == 'P' then
    reply = lock_poll(readers, state, queue, waiters, member, prefix)
  elseif kind == 'C' or kind == 'G' then
    reply = lock_cancel(readers, state, queue, waiters, member, prefix, kind == 'G', lease)
  else
    reply = lock_release(readers, state, queue, waiters, member, prefix)
  end
  replies[#replies + 1] = reply
end
for _, value in ipairs(woken) do
  replies[#replies + 1] = value
end
return replies
