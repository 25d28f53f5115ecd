-- Prepended to every Bulwark script when it is loaded.

-- The server's clock in microseconds: application hosts' clocks never enter a decision.
local function server_micros()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- An integral number as a Redis argument; Lua's own conversion keeps only 14 digits.
local function int(x)
  return string.format('%.0f', x)
end

-- Keeps a key alive for at least ttl_millis and never shortens a longer expiry another call set.
-- It extends to twice that, so the calls that follow within one lease only read the TTL.
local function keep_alive(key, ttl_millis)
  local ttl = redis.call('PTTL', key)
  if ttl ~= -2 and ttl < ttl_millis then
    redis.call('PEXPIRE', key, int(2 * ttl_millis))
  end
end

-- Tells the JVM of a queued member ('<instance>:<request>') that it now holds its grant.
local function wake(prefix, member, token)
  local instance, request = string.match(member, '^(.+):(%d+)$')
  redis.call('PUBLISH', prefix .. 'wake:' .. instance, request .. ':' .. int(token))
end
