-- A batch of one JVM's reservations on one rate limit, made one by one in order with the step the
-- single script of the limit's type uses (lib/smooth.lua, lib/fixed.lua, lib/rolling.lua): each
-- gets the decision it would get sent alone in that order. Runs as reserve() of
-- lib/remembered.lua, so a batch the client sends again gets its first reply. Returns the
-- decisions in order, each as the single script's reply.
-- KEYS: the state, the remembered replies (on a Cluster). ARGV: permits, window micros, the type
-- (smooth|fixed|rolling), then what lib/remembered.lua reads (ARGV[4] to ARGV[6]), then the max
-- wait of each reservation, micros.
local step = ({ smooth = rate_smooth, fixed = rate_fixed, rolling = rate_rolling })[ARGV[3]]
if not step then
  return redis.error_reply('Bulwark: unknown rate limit type ' .. tostring(ARGV[3]))
end
local permits, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local decisions = {}
for i = 7, #ARGV do
  decisions[#decisions + 1] = step(KEYS[1], permits, window, tonumber(ARGV[i]))
end
return decisions
