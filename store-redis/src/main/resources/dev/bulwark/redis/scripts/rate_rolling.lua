-- A sliding log of grant times (server micros), ascending, at most 'permits' entries plus the
-- reservations of waiting callers: a permit is granted at the first instant when fewer than
-- 'permits' grants lie in the window ending there. Returns the delay in micros (>= 0) when granted,
-- -1 - the micros until the next permit when rejected.
-- KEYS: log. ARGV: permits, window micros, max wait micros.
--
-- Cost: a call must cost what expired, not the length of the log (a limit of 200000 lets a whole
-- window's log expire at once). The expired head is found by a galloping search of LINDEX probes
-- (O(log expired) probes, each within twice the expired part of the head) and removed by one LTRIM,
-- which frees whole list nodes; every other read is LINDEX near one end of the list. A sorted set
-- would cost more: ZREMRANGEBYSCORE frees expired members one by one, and each takes about nine
-- times the memory of a list entry.
--
-- Clock: a reservation lies 'permits' places after the grant it waits for, which stays in the log
-- while the reservation is in the future; so the first 'permits' entries are grants that had
-- started when the log was last written. A server clock that steps back (failover to a lagging
-- node) is clamped to the newest of them: the log stays ascending, a delay is never negative.
local key = KEYS[1]
local permits, window, max_wait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local clock = server_micros()
local now = clock
local size = redis.call('LLEN', key)
if size > 0 then
  local started = tonumber(redis.call('LINDEX', key, math.min(size, permits) - 1))
  if started > now then
    now = started
  end
end

local horizon = now - window
if size > 0 and tonumber(redis.call('LINDEX', key, 0)) <= horizon then
  -- entries [0, low] have expired; find the first one that has not (or the end of the log)
  local low, high = 0, 1
  while high < size and tonumber(redis.call('LINDEX', key, high)) <= horizon do
    low, high = high, high * 2
  end
  if high > size then
    high = size
  end
  while high - low > 1 do
    local middle = math.floor((low + high) / 2)
    if tonumber(redis.call('LINDEX', key, middle)) <= horizon then
      low = middle
    else
      high = middle
    end
  end
  redis.call('LTRIM', key, high, -1)
  size = size - high
end

local at = now
if size >= permits then
  at = tonumber(redis.call('LINDEX', key, size - permits)) + window
end
local delay = at - now
if delay > max_wait then
  return -1 - delay
end
redis.call('RPUSH', key, int(at))
-- the expiry runs on the server's real clock, so it counts from that
redis.call('PEXPIRE', key, int(math.ceil((at - clock + window) / 1000) + 1))
return delay
