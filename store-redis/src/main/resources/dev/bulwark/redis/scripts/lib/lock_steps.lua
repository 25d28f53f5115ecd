-- The four steps on a lock key's requests, each written once: the single scripts (lock_acquire,
-- lock_poll, lock_cancel, lock_release) run one of them, a batch (lock_batch) runs them one by one
-- in its order. Replies as lib/common.lua says. Arguments: the lock key's keys (readers, state,
-- queue, waiters), the member ('<instance>:<request>') and what the step needs.

-- Takes a lock on one key when its mode ('R' or 'W') allows and nobody waits ahead; otherwise
-- queues the request (may_queue) or rejects it. Returns the fencing token (> 0) granted, 0 queued,
-- -1 rejected; a member that already holds or waits (a re-sent call) gets its token or 0 again and
-- changes nothing.
local function lock_acquire(readers, state, queue, waiters, member, mode, lease, may_queue, prefix,
    secret)
  if take_given_up(state, member) then
    return -1 -- its caller gave it up already (lib/given_up.lua): nobody would use the lock
  end
  local now_micros = server_micros()
  local now = math.floor(now_micros / 1000)
  local held = redis.call('HMGET', state, 'writer', 'fence')
  if not held[1] and redis.call('EXISTS', queue) == 0 then
    -- no writer mark and nobody waiting: a reader may enter, a writer when no reader holds
    -- (a member that holds already only has its lease set again)
    if mode == 'R' then
      local token = grant_read(readers, state, member, now + lease, held[2], now_micros, lease)
      keep_alive(readers, lease)
      return token
    end
    if redis.call('ZCARD', readers) == 0 then
      local token = grant_write(state, member, now + lease, held[2], now_micros)
      expire_after(state, lease, not held[2])
      return token
    end
  end
  -- contended, or holders expired: reclaim what expired, serve the queue, then judge; a re-sent
  -- call finds its member holding or waiting
  hand_over_locks(readers, state, queue, waiters, now, now_micros, prefix)
  local token = held_token(readers, state, member, now_micros)
  if token then
    return token
  end
  if is_queued(waiters, member) then
    return 0
  end
  if redis.call('EXISTS', queue) == 0 and not live_writer(state, now) then
    if mode == 'R' then
      token = grant_read(readers, state, member, now + lease, redis.call('HGET', state, 'fence'),
        now_micros, lease)
      keep_alive(readers, lease)
      return token
    end
    if redis.call('ZCARD', readers) == 0 then
      token = grant_write(state, member, now + lease, redis.call('HGET', state, 'fence'), now_micros)
      keep_alive(state, lease)
      return token
    end
  end
  if may_queue then
    enqueue(queue, waiters, state, member, mode, now + lease, lease, secret)
    return 0
  end
  return -1
end

-- The state of a queued lock request; grants what expired holders allow first. Returns the token
-- (> 0) held, 0 still queued, -1 unknown (never queued, withdrawn, or its lease ran out).
local function lock_poll(readers, state, queue, waiters, member, prefix)
  local now_micros = server_micros()
  hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros, prefix)
  local token = held_token(readers, state, member, now_micros)
  if token then
    return token
  end
  if queued_live(queue, waiters, state, member, math.floor(now_micros / 1000)) then
    return 0
  end
  return -1
end

-- Withdraws a queued lock request; a withdrawn writer may let the readers behind it in. Returns
-- the token (> 0) when it had been granted meanwhile and the caller keeps it, else -1. With
-- release_grant (a caller that lost the reply of its acquire or poll and gives the request up) a
-- lock it was granted is released too, and a request found nowhere is marked so that its acquire,
-- should it arrive later, does nothing for lease ms (lib/given_up.lua).
local function lock_cancel(readers, state, queue, waiters, member, prefix, release_grant, lease)
  local now_micros = server_micros()
  local now = math.floor(now_micros / 1000)
  local was_queued = withdraw(queue, waiters, state, member)
  hand_over_locks(readers, state, queue, waiters, now, now_micros, prefix)
  local token = held_token(readers, state, member, now_micros)
  if token then
    if not release_grant then
      return token
    end
    drop_holder(readers, state, member)
    hand_over_locks(readers, state, queue, waiters, now, now_micros, prefix)
  elseif release_grant and not was_queued then
    mark_given_up(state, member, now, lease)
  end
  return -1
end

-- Releases a lock on one key and grants what the head of its queue now allows. Returns 1
-- released, 0 when the member held nothing: a re-sent release changes nothing.
local function lock_release(readers, state, queue, waiters, member, prefix)
  if not drop_holder(readers, state, member) then
    return 0
  end
  if redis.call('EXISTS', queue) == 1 then
    local now_micros = server_micros()
    hand_over_locks(readers, state, queue, waiters, math.floor(now_micros / 1000), now_micros,
      prefix)
  end
  return 1
end
