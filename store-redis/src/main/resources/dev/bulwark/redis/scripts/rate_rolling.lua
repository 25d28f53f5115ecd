-- A sliding log of grant times (server micros), sorted, at most 'permits' entries plus the
-- reservations of waiting callers: a permit is granted at the first instant when fewer than
-- 'permits' grants lie in the window ending there. Returns the delay in micros (>= 0) when granted,
-- -1 - the micros until the next permit when rejected.
-- KEYS: log. ARGV: permits, window micros, max wait micros.
local permits, window, max_wait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = server_micros()
while true do
  local oldest = redis.call('LINDEX', KEYS[1], 0)
  if not oldest or tonumber(oldest) > now - window then
    break
  end
  redis.call('LPOP', KEYS[1])
end
local size = redis.call('LLEN', KEYS[1])
local at = now
if size >= permits then
  at = tonumber(redis.call('LINDEX', KEYS[1], size - permits)) + window
end
local delay = at - now
if delay > max_wait then
  return -1 - math.ceil(delay)
end
redis.call('RPUSH', KEYS[1], int(at))
redis.call('PEXPIRE', KEYS[1], int(math.ceil((at - now + window) / 1000) + 1))
return math.ceil(delay)
