-- A first-come, first-served queue: a list of members plus a hash of their entries,
-- '<mode>:<lease expiry millis>' (mode P for a permit, R or W for a lock). Queued requests are
-- leased like held ones, so the waiters of a JVM that died drop out instead of being handed grants.
-- Invariant every script keeps: a request is queued only while it cannot be granted, and whatever
-- frees room hands it to the queue at once; so a hot path that sees room sees an empty queue.

local function enqueue(queue, waiters, member, mode, expiry, lease)
  redis.call('RPUSH', queue, member)
  redis.call('HSET', waiters, member, mode .. ':' .. int(expiry))
  keep_alive(queue, lease)
  keep_alive(waiters, lease)
end

-- The live head of the queue (member, mode, expiry), dropping heads whose lease ran out.
local function queue_head(queue, waiters, now)
  while true do
    local member = redis.call('LINDEX', queue, 0)
    if not member then
      return nil
    end
    local entry = redis.call('HGET', waiters, member)
    if entry then
      local mode, expiry = string.match(entry, '^(%a):(%d+)$')
      expiry = tonumber(expiry)
      if expiry > now then
        return member, mode, expiry
      end
      redis.call('HDEL', waiters, member)
    end
    redis.call('LPOP', queue)
  end
end

local function dequeue_head(queue, waiters, member)
  redis.call('LPOP', queue)
  redis.call('HDEL', waiters, member)
end

local function withdraw(queue, waiters, member)
  redis.call('LREM', queue, 1, member)
  redis.call('HDEL', waiters, member)
end

-- Tells the JVM of a queued member ('<instance>:<request>') that it now holds its grant.
local function wake(prefix, member, token)
  local instance, request = string.match(member, '^(.+):(%d+)$')
  redis.call('PUBLISH', prefix .. 'wake:' .. instance, request .. ':' .. int(token))
end
