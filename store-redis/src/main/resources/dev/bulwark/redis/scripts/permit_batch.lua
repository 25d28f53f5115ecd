-- A batch of one JVM's operations on one bulkhead, applied one by one in order with the steps the
-- single scripts use (lib/permit_steps.lua): each gets the answer it would get sent alone in that
-- order. Operation kinds: 'A' acquire that may queue, 'a' acquire that may not, 'P' poll, 'C'
-- cancel, 'R' release, 'G' give up (a cancel that also releases a grant: the batch's reply was
-- lost). Returns the answers in order (a release's 1 released, 0 not held), then, as pairs of
-- request id and 0, the requests of this JVM the batch handed a permit to, in order: the JVM wakes
-- those waiters from the reply (their notices still follow on the wake-up channel).
-- KEYS: holders, queue, waiters, state. ARGV: the JVM's instance id, limit, lease millis, key
-- prefix, wake-up secret of the JVM, then per operation: its kind, its request id.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local instance, limit, lease, prefix, secret =
  ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
for i = 6, #ARGV - 1, 2 do
  if not string.find('AaPCRG', ARGV[i], 1, true) or #ARGV[i] ~= 1 then
    return redis.error_reply('Bulwark: unknown batch operation ' .. ARGV[i])
  end
end
woken_of = instance
local replies = {}
for i = 6, #ARGV - 1, 2 do
  local kind, member = ARGV[i], instance .. ':' .. ARGV[i + 1]
  local reply
  if kind == 'A' or kind == 'a' then
    reply = permit_acquire(holders, queue, waiters, state, member, limit, lease, kind == 'A',
      prefix, secret)
  elseif kind == 'P' then
    reply = permit_poll(holders, queue, waiters, state, member, limit, prefix)
  elseif kind == 'C' or kind == 'G' then
    reply = permit_cancel(holders, queue, waiters, state, member, limit, prefix, kind == 'G', lease)
  else
    reply = permit_release(holders, queue, waiters, state, member, limit, prefix)
  end
  replies[#replies + 1] = reply
end
for _, value in ipairs(woken) do
  replies[#replies + 1] = value
end
return replies
