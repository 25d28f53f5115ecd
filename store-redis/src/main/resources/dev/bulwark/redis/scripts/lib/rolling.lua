-- A sliding log of grant times (server micros), ascending, at most 'permits' entries plus the
-- reservations of waiting callers: a permit is granted at the first instant when fewer than
-- 'permits' grants lie in the window ending there. Returns the delay in micros (>= 0) when granted,
-- -1 - the micros until the next permit when rejected.
--
-- Cost: a call must cost what expired, not the length of the log (a limit of 200000 lets a whole
-- window's log expire at once). The expired head is found by a galloping search of LINDEX probes
-- (O(log expired) probes, each within twice the expired part of the head) and removed by one LTRIM,
-- which frees whole list nodes; every other read is near an end of the list or at 'permits' (a
-- binary search only after a redefinition while slots are reserved). A sorted set
-- would cost more: ZREMRANGEBYSCORE frees expired members one by one, and each takes about nine
-- times the memory of a list entry.
--
-- Clock: a reservation lies one window after a grant that stays in the log while the reservation
-- is in the future, so it is never earlier than the oldest entry plus the window; a grant that had
-- started when the log was last written is earlier than that (the oldest entry had not expired
-- then). That tells them apart whatever the permits were when they were written: a limit redefined
-- with more permits finds reservations among its first 'permits' entries. A server clock that
-- steps back (failover to a lagging node) is clamped to the newest started grant: the log stays
-- ascending, a delay is never negative. Nothing is clamped while every entry lies in the past.
-- Parameters: the state key; permits, window and max wait (micros) as numbers. Written once: the
-- single script rate_rolling.lua and the batch (rate_batch.lua) call it.
local function rate_rolling(key, permits, window, max_wait)
  local clock = server_micros()
  local now = clock
  local size = redis.call('LLEN', key)
  local newest = size > 0 and tonumber(redis.call('LINDEX', key, -1)) or nil
  local head -- the oldest entry, once read
  if newest and newest > now then
    head = tonumber(redis.call('LINDEX', key, 0))
    local reserved_from = head + window
    -- without a redefinition the newest started grant is entry permits - 1 (the next one, if any,
    -- is reserved); else search for it
    local guess = math.min(size, permits) - 1
    local around = redis.call('LRANGE', key, guess, guess + 1)
    local started = tonumber(around[1])
    if started >= reserved_from or (around[2] and tonumber(around[2]) < reserved_from) then
      local low, high = 0, size -- entry low is started; entry high is reserved, or the end
      while high - low > 1 do
        local middle = math.floor((low + high) / 2)
        if tonumber(redis.call('LINDEX', key, middle)) < reserved_from then
          low = middle
        else
          high = middle
        end
      end
      started = tonumber(redis.call('LINDEX', key, low))
    end
    if started > now then
      now = started
    end
  end

  local horizon = now - window
  if size > 0 and (head or tonumber(redis.call('LINDEX', key, 0))) <= horizon then
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
  -- slots go in the order of the calls: after a redefinition with other permits the window alone
  -- could place one before a reserved slot
  if size > 0 and newest > at then
    at = newest
  end
  local delay = at - now
  if delay > max_wait then
    return -1 - delay
  end
  redis.call('RPUSH', key, int(at))
  -- the expiry runs on the server's real clock, so it counts from that
  redis.call('PEXPIRE', key, int(math.ceil((at - clock + window) / 1000) + 1))
  return delay
end
