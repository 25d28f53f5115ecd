-- Takes a lock on one key when its mode allows and nobody waits ahead; otherwise queues the request
-- (ARGV[4] = '1') or rejects it. Returns {1, token} granted, {0, 0} queued, {-1, 0} rejected.
-- KEYS: holders, state, queue, waiters. ARGV: member, mode (R|W), lease millis, may queue, prefix.
local holders, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member, mode, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
hand_over_locks(holders, state, queue, waiters, now, now_micros, ARGV[5])
if redis.call('LLEN', queue) == 0 and lock_free_for(holders, state, mode) then
  return {1, grant_lock(holders, state, member, mode, now + lease, now, now_micros)}
end
if ARGV[4] == '1' then
  enqueue(queue, waiters, member, mode, now + lease)
  keep_alive(queue, lease)
  keep_alive(waiters, lease)
  return {0, 0}
end
return {-1, 0}
