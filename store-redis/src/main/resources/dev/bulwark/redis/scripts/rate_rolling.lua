-- One ROLLING reservation (lib/rolling.lua), its reply remembered per call (lib/remembered.lua).
-- KEYS: the state, the remembered replies (on a Cluster). ARGV: permits, window micros, max wait
-- micros, then what lib/remembered.lua reads.
return rate_rolling(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
