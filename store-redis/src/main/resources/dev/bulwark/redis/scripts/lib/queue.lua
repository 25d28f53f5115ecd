-- A first-come, first-served queue of requests, kept in three places so that every step on it
-- costs O(log n) whatever its length: the queue, a sorted set of members by arrival (score: one
-- above the newest's); the waiters, a sorted set of the same members by lease expiry (millis), so
-- the live ones are counted without reading them; and, per member, field 'queued:<member>' of the
-- limit's state hash: '<mode>:<wake-up secret>' (mode P for a permit, R or W for a lock; the secret
-- is the member's JVM's, see wake). Queued requests are leased like held ones, so the waiters of a
-- JVM that died drop out instead of being handed grants.
-- Invariant every script keeps: a request is queued only while it cannot be granted, and whatever
-- frees room hands it to the queue at once. Room can also appear without a script, when the
-- holders' key expires under live waiters; so a hot path that sees no holder at all looks at the
-- queue before it grants (one EXISTS), and a newcomer never passes a live waiter.

local function enqueue(queue, waiters, state, member, mode, expiry, lease, secret)
  local newest = redis.call('ZRANGE', queue, -1, -1, 'WITHSCORES')
  redis.call('ZADD', queue, (tonumber(newest[2]) or 0) + 1, member)
  redis.call('ZADD', waiters, int(expiry), member)
  redis.call('HSET', state, 'queued:' .. member, mode .. ':' .. secret)
  keep_alive(queue, lease)
  keep_alive(waiters, lease)
  keep_alive(state, lease)
end

-- Takes the member out of the queue, wherever it stands; whether it was queued.
local function withdraw(queue, waiters, state, member)
  redis.call('ZREM', queue, member)
  redis.call('HDEL', state, 'queued:' .. member)
  return redis.call('ZREM', waiters, member) == 1
end

-- The live head of the queue (member, mode, expiry, secret), dropping heads whose lease ran out.
local function queue_head(queue, waiters, state, now)
  while true do
    local member = redis.call('ZRANGE', queue, 0, 0)[1]
    if not member then
      return nil
    end
    local expiry = tonumber(redis.call('ZSCORE', waiters, member) or 0)
    local entry = redis.call('HGET', state, 'queued:' .. member)
    if expiry > now and entry then
      local mode, secret = string.match(entry, '^(%a):(.*)$')
      return member, mode, expiry, secret
    end
    withdraw(queue, waiters, state, member)
  end
end

-- Whether member waits in the queue (live or not yet dropped).
local function is_queued(waiters, member)
  return redis.call('ZSCORE', waiters, member) ~= false
end

-- Whether member waits in the queue with a live lease; an entry whose lease ran out is withdrawn,
-- so a poll never reports as queued what the queue will never serve.
local function queued_live(queue, waiters, state, member, now)
  local expiry = redis.call('ZSCORE', waiters, member)
  if not expiry then
    return false
  end
  if tonumber(expiry) > now then
    return true
  end
  withdraw(queue, waiters, state, member)
  return false
end

-- Tells the JVM of a queued member ('<instance>:<request>') that it now holds its grant:
-- '<request>:<token>:<mac>', the mac being SHA-1 of '<secret>:<request>:<token>' with the secret
-- the JVM queued the request with. The JVM acts on a notice only when the mac matches, so a client
-- that may PUBLISH but not read Bulwark's keys can neither start a waiter nor hand it a token.
-- A batch script sets woken_of to its JVM's instance id: wake then also lists the hand-overs to
-- that JVM's members in woken (request id, token, ...), which the batch returns, so the JVM wakes
-- its own waiters from the reply without waiting for the notice. A single script leaves it nil.
local woken_of = nil
local woken = {}

local function wake(prefix, member, token, secret)
  local instance, request = string.match(member, '^(.+):(%d+)$')
  local notice = request .. ':' .. int(token)
  redis.call('PUBLISH', prefix .. 'wake:' .. instance,
    notice .. ':' .. redis.sha1hex(secret .. ':' .. notice))
  if instance == woken_of then
    woken[#woken + 1] = tonumber(request)
    woken[#woken + 1] = token
  end
end

-- How many queued requests hold a live lease; reads only (an operator's view changes nothing).
local function count_live(waiters, now)
  return redis.call('ZCOUNT', waiters, '(' .. int(now), '+inf')
end
