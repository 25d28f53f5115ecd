-- Requests given up after the reply of their acquire was lost, which the give-up found neither
-- holding nor queued: their acquire may still be on its way (the give-up goes out on another
-- connection and can reach Redis first), and must neither grant nor queue when it arrives, or it
-- would take a permit nobody uses or renews. Field 'given-up:<member>' of the state hash, valued
-- with the time (ms, server clock) after which no late acquire is expected. The late acquire
-- removes its mark; each new mark drops the expired ones, whose acquire never came, so marks stay
-- as few as the lost replies of one lease.

-- Marks member as given up for lifetime ms. Reads the whole state hash (a holder's grant time
-- each): it runs only when a reply was lost and its request not found.
local function mark_given_up(state, member, now, lifetime)
  local fields = redis.call('HGETALL', state)
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 9) == 'given-up:' and tonumber(fields[i + 1]) <= now then
      redis.call('HDEL', state, fields[i])
    end
  end
  redis.call('HSET', state, 'given-up:' .. member, int(now + lifetime))
  keep_alive(state, lifetime)
end

-- Whether member was given up before its acquire arrived; the mark is used up.
local function take_given_up(state, member)
  return redis.call('HDEL', state, 'given-up:' .. member) == 1
end
