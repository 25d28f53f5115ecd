-- GCRA: the whole state is the theoretical arrival time (TAT, server micros) of the next permit.
-- A request is admitted while TAT lies less than one window ahead, which allows a burst of
-- 'permits'; a caller that may wait reserves the next slot, so waiting is still one round trip.
-- Returns the delay in micros (>= 0) when granted: the call starts after it; when rejected,
-- -1 - the micros until the next permit (one integer: the cheapest reply).
-- KEYS: tat. ARGV: permits, window micros, max wait micros.
local permits, window, max_wait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = server_micros()
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local next_tat = math.max(tat, now) + window / permits
local delay = next_tat - window - now
if delay > max_wait then
  return -1 - math.ceil(delay)
end
redis.call('SET', KEYS[1], next_tat, 'PX', math.ceil((next_tat - now) / 1000) + 1)
return math.ceil(math.max(delay, 0))
