-- Reads a bulkhead for an operator and changes nothing: holders and waiters whose lease ran out
-- are left out, not removed (the next script that decides removes them).
-- Returns {queued, listed, waiter member, waiter's lease expiry millis, '', ... (listed times),
-- holder member, lease expiry millis, grant micros or '', member, expiry, since, ...}: the first
-- ARGV[1] live waiters in queue order (the queue records no time of arrival: ''), then the live
-- holders.
-- KEYS: holders, queue, waiters, state.
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local most = tonumber(ARGV[1])
local now = math.floor(server_micros() / 1000)
local reply = {count_live(waiters, now), 0}
local from = 0
while reply[2] < most do
  local page = redis.call('ZRANGE', queue, from, from + most - 1)
  if #page == 0 then
    break
  end
  for _, member in ipairs(page) do
    local expiry = tonumber(redis.call('ZSCORE', waiters, member) or 0)
    if expiry > now and reply[2] < most then
      reply[#reply + 1] = member
      reply[#reply + 1] = int(expiry)
      reply[#reply + 1] = ''
      reply[2] = reply[2] + 1
    end
  end
  from = from + most
end
local live = redis.call('ZRANGEBYSCORE', holders, '(' .. int(now), '+inf', 'WITHSCORES')
for i = 1, #live, 2 do
  reply[#reply + 1] = live[i]
  reply[#reply + 1] = live[i + 1]
  reply[#reply + 1] = since_of(state, live[i])
end
return reply
