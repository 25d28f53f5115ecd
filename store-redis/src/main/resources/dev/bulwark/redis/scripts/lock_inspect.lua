-- Reads one lock key for an operator and changes nothing: holders and waiters whose lease ran out
-- are left out, not removed.
-- Returns {queued, writer member or '', writer's lease expiry millis or '0', writer's grant micros
-- or '', reader, expiry, since, reader, expiry, since, ...} (a grant time unknown: '').
-- KEYS: readers, state, queue, waiters.
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = math.floor(server_micros() / 1000)
local reply = {count_live(waiters, now), '', '0', ''}
local writer = redis.call('HMGET', state, 'writer', 'writer_until')
if writer[1] and tonumber(writer[2]) > now then
  reply[2], reply[3] = writer[1], writer[2]
  reply[4] = since_of(state, writer[1])
end
local live = redis.call('ZRANGEBYSCORE', readers, '(' .. int(now), '+inf', 'WITHSCORES')
for i = 1, #live, 2 do
  reply[#reply + 1] = live[i]
  reply[#reply + 1] = live[i + 1]
  reply[#reply + 1] = since_of(state, live[i])
end
return reply
