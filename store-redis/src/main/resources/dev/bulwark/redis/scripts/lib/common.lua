-- Prepended to every Bulwark script when it is loaded. Kept small: it is run on every call.
--
-- Replies. Every script that decides an outcome answers one integer, its sign saying which:
--   permit scripts  1 granted (held) | 0 queued | -1 rejected (or withdrawn, or unknown)
--   lock scripts    token > 0 granted (held, with that fencing token) | 0 queued | -1 rejected
--   rate scripts    delay >= 0 granted, in micros | -1 - the micros until the next permit
--   releases        1 released | 0 nothing of the member was held (nothing changed)
-- Only renew (the positions of lost leases) and define (the previous record) return lists: they
-- report data, not an outcome.
--
-- Every permit and lock script is idempotent per member: a client may re-send a call whose reply
-- it lost (Jedis does so after a connection error) and gets the same answer without a second
-- grant or a second queue entry.

-- The server's clock in microseconds: application hosts' clocks never enter a decision.
local function server_micros()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- An integral number inside a string: Lua's own conversion keeps only 14 digits (numbers given to
-- redis.call as numbers are converted exactly by Redis).
local function int(x)
  return string.format('%.0f', x)
end
