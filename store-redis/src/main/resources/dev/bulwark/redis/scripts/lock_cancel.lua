-- Withdraws a queued lock request; a withdrawn writer may let the readers behind it in. Returns
-- the token (> 0) when it had been granted meanwhile and the caller keeps it, else -1. With
-- ARGV[3] = '1' (a caller that lost the reply of its acquire or poll and gives the request up) a
-- lock it was granted is released too, and a request found nowhere is marked so that its acquire,
-- should it arrive later, does nothing (lib/given_up.lua).
-- KEYS: readers, state, queue, waiters. ARGV: member, key prefix, release a grant, lease millis
-- (with a release: how long a late acquire is refused).
local readers, state, queue, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
local was_queued = withdraw(queue, waiters, state, member)
hand_over_locks(readers, state, queue, waiters, now, now_micros, ARGV[2])
local token = held_token(readers, state, member, now_micros)
if token then
  if ARGV[3] ~= '1' then
    return token
  end
  drop_holder(readers, state, member)
  hand_over_locks(readers, state, queue, waiters, now, now_micros, ARGV[2])
elseif ARGV[3] == '1' and not was_queued then
  mark_given_up(state, member, now, tonumber(ARGV[4]))
end
return -1
