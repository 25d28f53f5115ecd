-- Fixed windows aligned to the server's epoch: a hash of the current window's number and count.
-- Reservations of waiting callers spill into later windows (count may exceed the limit: slot n lies
-- n / permits windows ahead). A clock that steps back into an earlier window is clamped to the start
-- of the stored one, so the stored window never goes back.
-- The arithmetic is core's FixedWindowState, in micros.
-- Returns the delay in micros (>= 0) when granted, -1 - the micros until the next permit when
-- rejected.
-- KEYS: window state. ARGV: permits, window micros, max wait micros.
local permits, length, max_wait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
-- a clock lags by less than a day: a stored window further ahead was numbered under a shorter
-- window (a limit redefined while its state lived)
local max_clock_lag = 86400000000
local clock = server_micros()
local now = clock
local current = math.floor(now / length)
local state = redis.call('HMGET', KEYS[1], 'window', 'count')
local window, count = tonumber(state[1]), tonumber(state[2]) or 0
if window and current < window then
  if window - current > math.floor(max_clock_lag / length) + 1 then
    window = nil -- numbered in shorter windows: start afresh
  else
    current = window
    now = window * length
  end
end
if window ~= current then
  if window == nil or current - window >= math.floor(count / permits) + 1 then
    count = 0
  else
    count = math.max(0, count - (current - window) * permits)
  end
  window = current
end
local slot_window = window + math.floor(count / permits)
local delay = math.max(0, slot_window * length - now)
if delay > max_wait then
  return -1 - delay
end
redis.call('HSET', KEYS[1], 'window', int(window), 'count', int(count + 1))
-- the expiry runs on the server's real clock, so it counts from that
redis.call('PEXPIRE', KEYS[1], int(math.ceil(((slot_window + 1) * length - clock) / 1000) + 1))
return delay
