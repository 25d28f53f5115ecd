-- Records the definition a JVM enforces under a name; returns {definition, instance} of the
-- previous record when it differs, else an empty list.
-- KEYS: definition hash. ARGV: definition, instance, ttl millis.
local previous = redis.call('HMGET', KEYS[1], 'definition', 'instance')
redis.call('HSET', KEYS[1], 'definition', ARGV[1], 'instance', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if previous[1] and previous[1] ~= ARGV[1] then
  return {previous[1], previous[2]}
end
return {}
