-- Releases a lock on one key and grants what the head of its queue now allows.
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
if redis.call('HGET', state, 'writer') == member then
  redis.call('HDEL', state, 'writer', 'writer_until')
else
  redis.call('ZREM', readers, member)
end
if redis.call('LLEN', queue) == 0 then
  return 0
end
local now_micros = server_micros()
hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros, ARGV[2])
return 1
