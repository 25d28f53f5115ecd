-- Key expiry: every key lives at least as long as the leases in it, and dies when idle.

-- Keeps a key alive for at least ttl_millis; never shortens a longer expiry another call set.
-- It extends to twice that, so the calls that follow within one lease only read the TTL.
local function keep_alive(key, ttl_millis)
  local ttl = redis.call('PTTL', key)
  if ttl ~= -2 and ttl < ttl_millis then
    redis.call('PEXPIRE', key, int(2 * ttl_millis))
  end
end

-- The one-command form of keep_alive for a hot path that knows whether its write just created
-- the key: a new key gets its expiry, an existing one only a later one (GT).
local function expire_after(key, ttl_millis, created)
  if created then
    redis.call('PEXPIRE', key, int(2 * ttl_millis))
  else
    redis.call('PEXPIRE', key, int(2 * ttl_millis), 'GT')
  end
end
