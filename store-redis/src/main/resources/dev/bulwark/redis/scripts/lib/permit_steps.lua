-- The four steps on a bulkhead's requests, each written once: the single scripts (permit_acquire,
-- permit_poll, permit_cancel, permit_release) run one of them, a batch (permit_batch) runs them one
-- by one in its order. Replies as lib/common.lua says. Arguments: the bulkhead's keys (holders,
-- queue, waiters, state), the member ('<instance>:<request>') and what the step needs.

-- Takes a permit when one is free and nobody waits ahead; otherwise queues the request (may_queue)
-- or rejects it. Returns 1 granted, 0 queued, -1 rejected; a member that already holds or waits (a
-- re-sent call) gets 1 or 0 again and changes nothing.
local function permit_acquire(holders, queue, waiters, state, member, limit, lease, may_queue,
    prefix, secret)
  if take_given_up(state, member) then
    return -1 -- its caller gave it up already (lib/given_up.lua): nobody would use the permit
  end
  local now_micros = server_micros()
  local now = math.floor(now_micros / 1000)
  local count = redis.call('ZCARD', holders)
  if count >= limit or (count == 0 and redis.call('EXISTS', queue) == 1) then
    -- full, or the holders' key expired under waiters: reclaim expired holders for the queue, then
    -- judge; a re-sent call finds its member holding or waiting
    count = hand_over_permits(holders, queue, waiters, state, limit, now_micros, prefix)
    if holds_permit(holders, member, now) then
      return 1
    end
    if is_queued(waiters, member) then
      return 0
    end
  end
  if count < limit then
    -- a member that holds already only has its lease set again, and keeps its grant time
    if redis.call('ZADD', holders, int(now + lease), member) == 1 then
      record_since(state, member, now_micros)
    end
    expire_after(holders, lease, count == 0)
    keep_alive(state, lease)
    return 1
  end
  if may_queue then
    enqueue(queue, waiters, state, member, 'P', now + lease, lease, secret)
    return 0
  end
  return -1
end

-- The state of a queued request, for a waiter that may have missed its wake-up; hands over what
-- expired holders freed first. Returns 1 held, 0 still queued, -1 unknown (never queued,
-- withdrawn, or its lease ran out).
local function permit_poll(holders, queue, waiters, state, member, limit, prefix)
  local now_micros = server_micros()
  local now = math.floor(now_micros / 1000)
  hand_over_permits(holders, queue, waiters, state, limit, now_micros, prefix)
  if holds_permit(holders, member, now) then
    return 1
  end
  if queued_live(queue, waiters, state, member, now) then
    return 0
  end
  return -1
end

-- Withdraws a queued request, then hands over what it and expired holders freed. Returns 1 when
-- the permit had been handed over meanwhile and the caller keeps it, -1 when nothing is held.
-- With release_grant (a caller that lost the reply of its acquire or poll and gives the request
-- up) a permit it was granted is released too, and a request found nowhere is marked so that its
-- acquire, should it arrive later, does nothing for lease ms (lib/given_up.lua).
local function permit_cancel(holders, queue, waiters, state, member, limit, prefix, release_grant,
    lease)
  local now_micros = server_micros()
  local now = math.floor(now_micros / 1000)
  local was_queued = withdraw(queue, waiters, state, member)
  if holds_permit(holders, member, now) then
    if not release_grant then
      return 1
    end
    drop_permit(holders, state, member)
  elseif release_grant and not was_queued then
    mark_given_up(state, member, now, lease)
  end
  hand_over_permits(holders, queue, waiters, state, limit, now_micros, prefix)
  return -1
end

-- Releases a permit and hands what is free to the head of the queue, waking exactly those
-- waiters. Returns 1 released, 0 when the member held nothing: a re-sent release changes nothing.
local function permit_release(holders, queue, waiters, state, member, limit, prefix)
  if not drop_permit(holders, state, member) then
    return 0
  end
  if redis.call('EXISTS', queue) == 1 then
    hand_over_permits(holders, queue, waiters, state, limit, server_micros(), prefix)
  end
  return 1
end
