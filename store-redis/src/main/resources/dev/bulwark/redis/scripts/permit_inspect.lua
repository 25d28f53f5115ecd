-- Reads a bulkhead for an operator and changes nothing: holders and waiters whose lease ran out
-- are left out, not removed (the next script that decides removes them).
-- Returns {queued, member, lease expiry millis, grant micros or '', member, expiry, since, ...}
-- for the live holders.
-- KEYS: holders, queue, waiters, state.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = math.floor(server_micros() / 1000)
local reply = {count_live(waiters, now)}
local live = redis.call('ZRANGEBYSCORE', holders, '(' .. int(now), '+inf', 'WITHSCORES')
for i = 1, #live, 2 do
  reply[#reply + 1] = live[i]
  reply[#reply + 1] = live[i + 1]
  reply[#reply + 1] = since_of(state, live[i])
end
return reply
