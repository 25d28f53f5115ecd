-- A first-come, first-served queue: a list of members plus a hash of their entries,
-- '<mode>:<lease expiry millis>:<wake-up secret>' (mode P for a permit, R or W for a lock; the
-- secret is the member's JVM's, see wake). Queued requests are leased like held ones, so the
-- waiters of a JVM that died drop out instead of being handed grants.
-- Invariant every script keeps: a request is queued only while it cannot be granted, and whatever
-- frees room hands it to the queue at once. Room can also appear without a script, when the
-- holders' key expires under live waiters; so a hot path that sees no holder at all looks at the
-- queue before it grants (one EXISTS), and a newcomer never passes a live waiter.

local function enqueue(queue, waiters, member, mode, expiry, lease, secret)
  redis.call('RPUSH', queue, member)
  redis.call('HSET', waiters, member, mode .. ':' .. int(expiry) .. ':' .. secret)
  keep_alive(queue, lease)
  keep_alive(waiters, lease)
end

-- The live head of the queue (member, mode, expiry, secret), dropping heads whose lease ran out.
local function queue_head(queue, waiters, now)
  while true do
    local member = redis.call('LINDEX', queue, 0)
    if not member then
      return nil
    end
    local entry = redis.call('HGET', waiters, member)
    if entry then
      local mode, expiry, secret = string.match(entry, '^(%a):(%d+):?(.*)$')
      expiry = tonumber(expiry)
      if expiry > now then
        return member, mode, expiry, secret
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
  return redis.call('HDEL', waiters, member) == 1
end

-- Whether member waits in the queue with a live lease; an entry whose lease ran out is withdrawn,
-- so a poll never reports as queued what the queue will never serve.
local function queued_live(queue, waiters, member, now)
  local entry = redis.call('HGET', waiters, member)
  if not entry then
    return false
  end
  if tonumber(string.match(entry, '^%a:(%d+)')) > now then
    return true
  end
  withdraw(queue, waiters, member)
  return false
end

-- Tells the JVM of a queued member ('<instance>:<request>') that it now holds its grant:
-- '<request>:<token>:<mac>', the mac being SHA-1 of '<secret>:<request>:<token>' with the secret
-- the JVM queued the request with. The JVM acts on a notice only when the mac matches, so a client
-- that may PUBLISH but not read Bulwark's keys can neither start a waiter nor hand it a token.
local function wake(prefix, member, token, secret)
  local instance, request = string.match(member, '^(.+):(%d+)$')
  local notice = request .. ':' .. int(token)
  redis.call('PUBLISH', prefix .. 'wake:' .. instance,
    notice .. ':' .. redis.sha1hex(secret .. ':' .. notice))
end

-- How many queued requests hold a live lease; reads only (an operator's view changes nothing).
local function count_live(queue, waiters, now)
  local live = 0
  for _, member in ipairs(redis.call('LRANGE', queue, 0, -1)) do
    local entry = redis.call('HGET', waiters, member)
    if entry and tonumber(string.match(entry, '^%a:(%d+)')) > now then
      live = live + 1
    end
  end
  return live
end
