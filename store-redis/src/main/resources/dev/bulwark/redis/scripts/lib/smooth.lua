-- GCRA: the whole state is the theoretical arrival time (TAT, server micros) of the next permit.
-- A request is admitted while TAT lies less than one window ahead, which allows a burst of
-- 'permits'; a caller that may wait reserves the next slot, so waiting is still one round trip.
-- TAT is kept exact, as whole micros plus a remainder in 1/permits micros ("<whole>:<remainder>",
-- or "<whole>" when the remainder is 0): the interval window/permits is rarely whole, and floats or
-- rounding would drift from the Java arithmetic by a fraction of a micro per permit. A clock that
-- steps back needs no clamp: TAT only grows, and an earlier now only lengthens the delay.
-- Returns the delay in micros (>= 0) when granted: the call starts after it; when rejected,
-- -1 - the micros until the next permit (one integer: the cheapest reply).
-- Parameters: the state key; permits, window and max wait (micros) as numbers. Written once: the
-- single script rate_smooth.lua and the batch (rate_batch.lua) call it.
local function rate_smooth(key, permits, window, max_wait)
  local now = server_micros()
  local tat, remainder = 0, 0
  local stored = redis.call('GET', key)
  if stored then
    local whole, part = string.match(stored, '^(%d+):(%d+)$')
    if whole then
      tat, remainder = tonumber(whole), tonumber(part)
    else
      tat = tonumber(stored)
      if not tat then
        return redis.error_reply('Bulwark: ' .. key .. ' holds no arrival time: ' .. stored)
      end
      tat = math.ceil(tat)
    end
    -- a remainder left by a definition with more permits counts as one whole micro
    if remainder >= permits then
      tat, remainder = tat + 1, 0
    end
  end
  if now > tat or (now == tat and remainder == 0) then
    tat, remainder = now, 0
  end
  local interval = math.floor(window / permits)
  tat, remainder = tat + interval, remainder + window - interval * permits
  if remainder >= permits then
    tat, remainder = tat + 1, remainder - permits
  end
  local delay = tat - window - now
  if remainder > 0 then
    delay = delay + 1
  end
  if delay > max_wait then
    return -1 - delay
  end
  local value = int(tat)
  if remainder > 0 then
    value = value .. ':' .. int(remainder)
  end
  redis.call('SET', key, value, 'PX', int(math.ceil((tat - now) / 1000) + 1))
  return math.max(delay, 0)
end
