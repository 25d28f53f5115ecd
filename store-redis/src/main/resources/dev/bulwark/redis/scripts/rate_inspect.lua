-- Reads a rate limit's state for an operator and changes nothing; the caller computes the permits
-- available with the same arithmetic the rate scripts follow.
-- Returns {server micros, the state's numbers}: smooth {tat, remainder}, fixed {window, count},
-- rolling the grant times ascending; {server micros} alone when the limit has no state.
-- KEYS: the state key. ARGV: type (smooth, fixed or rolling).
local reply = {int(server_micros())}
local kind = ARGV[1]
if kind == 'smooth' then
  local stored = redis.call('GET', KEYS[1])
  if stored then
    local whole, part = string.match(stored, '^(%d+):(%d+)$')
    if whole then
      reply[2], reply[3] = whole, part
    else
      reply[2], reply[3] = int(math.ceil(tonumber(stored) or 0)), '0'
    end
  end
elseif kind == 'fixed' then
  local state = redis.call('HMGET', KEYS[1], 'window', 'count')
  if state[1] then
    reply[2], reply[3] = state[1], state[2] or '0'
  end
else
  for _, at in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
    reply[#reply + 1] = at
  end
end
return reply
