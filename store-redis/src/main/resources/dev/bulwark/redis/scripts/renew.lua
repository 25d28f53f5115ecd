-- Extends a batch of leases, held or queued, to their length from now. Returns the 1-based
-- positions of the leases the store no longer knows (expired and reclaimed, or released).
-- KEYS: per lease holders (bulkhead) or readers (lock), queue, waiters, state.
-- ARGV: per lease member, lease millis.
local now = math.floor(server_micros() / 1000)
local lost = {}
for n = 1, #ARGV / 2 do
  local holders, queue, waiters, state = KEYS[4 * n - 3], KEYS[4 * n - 2], KEYS[4 * n - 1], KEYS[4 * n]
  local member, lease = ARGV[2 * n - 1], tonumber(ARGV[2 * n])
  local expiry = now + lease
  local writer = redis.call('HMGET', state, 'writer', 'writer_until')
  local held = redis.call('ZSCORE', holders, member)
  if writer[1] == member and tonumber(writer[2]) > now then
    redis.call('HSET', state, 'writer_until', int(expiry))
    keep_alive(state, lease)
  elseif held and tonumber(held) > now then
    redis.call('ZADD', holders, 'XX', 'GT', int(expiry), member)
    keep_alive(holders, lease)
    -- a holder keeps the state hash alive, with its grant time (and a reader's token)
    keep_alive(state, lease)
  else
    local until_millis = redis.call('ZSCORE', waiters, member)
    if until_millis and tonumber(until_millis) > now then
      redis.call('ZADD', waiters, 'XX', 'GT', int(expiry), member)
      keep_alive(waiters, lease)
      keep_alive(queue, lease)
      keep_alive(state, lease)
    else
      lost[#lost + 1] = n
    end
  end
end
return lost
