-- When each holder became one, for the operator's view: field 'since:<member>' of the state hash of
-- its bulkhead or lock key, in micros on the server's clock (for a handed-over request: the
-- hand-over, not its arrival). Kept in step with the holders: whatever adds a holder records it,
-- whatever removes one (release, cancel, reclaiming an expired lease) drops it, and the state hash
-- lives at least as long as the leases of its holders. A renewal changes only the lease.

local function record_since(state, member, now_micros)
  redis.call('HSET', state, 'since:' .. member, int(now_micros))
end

-- The member's grant time, or '' when none is recorded (a holder granted before they were).
local function since_of(state, member)
  return redis.call('HGET', state, 'since:' .. member) or ''
end

local function drop_since(state, member)
  redis.call('HDEL', state, 'since:' .. member)
end

-- Removes the holders of a sorted set whose lease ran out (score <= now), with their grant times.
local function drop_expired(holders, state, now)
  local gone = redis.call('ZRANGEBYSCORE', holders, '-inf', now)
  if #gone == 0 then
    return
  end
  redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
  for _, member in ipairs(gone) do
    drop_since(state, member)
  end
end
