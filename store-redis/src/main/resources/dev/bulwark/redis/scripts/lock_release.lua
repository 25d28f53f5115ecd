-- Releases a lock on one key and grants what the head of its queue now allows.
-- KEYS: holders, state, queue, waiters. ARGV: member, key prefix.
local holders, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
redis.call('ZREM', holders, member)
if redis.call('HGET', state, 'writer') == member then
  redis.call('HDEL', state, 'writer')
end
local now_micros = server_micros()
hand_over_locks(holders, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
return 1
