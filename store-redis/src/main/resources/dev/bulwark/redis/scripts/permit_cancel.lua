-- Withdraws a queued request, then hands over what it and expired holders freed. Returns 1 when
-- the permit had been handed over meanwhile and the caller keeps it, -1 when nothing is held.
-- With ARGV[4] = '1' (a caller that lost the reply of its acquire or poll and gives the request
-- up) a permit it was granted is released too, and a request found nowhere is marked so that its
-- acquire, should it arrive later, does nothing (lib/given_up.lua).
-- KEYS: holders, queue, waiters, state. ARGV: member, limit, key prefix, release a grant, lease
-- millis (with a release: how long a late acquire is refused).
local holders, queue, waiters, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member = ARGV[1]
local now_micros = server_micros()
local now = math.floor(now_micros / 1000)
local was_queued = withdraw(queue, waiters, state, member)
if holds_permit(holders, member, now) then
  if ARGV[4] ~= '1' then
    return 1
  end
  drop_permit(holders, state, member)
elseif ARGV[4] == '1' and not was_queued then
  mark_given_up(state, member, now, tonumber(ARGV[5]))
end
hand_over_permits(holders, queue, waiters, state, tonumber(ARGV[2]), now_micros, ARGV[3])
return -1
