-- Fixed windows aligned to the server's epoch: a hash of the current window's number and count.
-- Reservations of waiting callers spill into later windows (count may exceed the limit: slot n lies
-- n / permits windows ahead). A clock that steps back into an earlier window is clamped to the start
-- of the stored one, so the stored window never goes back.
-- The arithmetic is core's FixedWindowState, in micros.
-- Returns the delay in micros (>= 0) when granted, -1 - the micros until the next permit when
-- rejected.
-- Parameters: the state key; permits, window and max wait (micros) as numbers. Written once: the
-- single script rate_fixed.lua and the batch (rate_batch.lua) call it.
local function rate_fixed(key, permits, length, max_wait)
  -- a clock lags by less than a day: a stored window further ahead was numbered under a shorter
  -- window (a limit redefined while its state lived)
  local max_clock_lag = 86400000000
  local clock = server_micros()
  local now = clock
  local current = math.floor(now / length)
  local state = redis.call('HMGET', key, 'window', 'count')
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
  redis.call('HSET', key, 'window', int(window), 'count', int(count + 1))
  -- the expiry runs on the server's real clock, so it counts from that
  redis.call('PEXPIRE', key, int(math.ceil(((slot_window + 1) * length - clock) / 1000) + 1))
  return delay
end
