-- Reads a bulkhead for an operator and changes nothing: holders and waiters whose lease ran out
-- are left out, not removed (the next script that decides removes them).
-- Returns {queued, member, lease expiry millis, member, expiry, ...} for the live holders.
-- KEYS: holders, queue, waiters.
local holders, queue, waiters = KEYS[1], KEYS[2], KEYS[3]
local now = math.floor(server_micros() / 1000)
local reply = {count_live(queue, waiters, now)}
local live = redis.call('ZRANGEBYSCORE', holders, '(' .. int(now), '+inf', 'WITHSCORES')
for _, value in ipairs(live) do
  reply[#reply + 1] = value
end
return reply
