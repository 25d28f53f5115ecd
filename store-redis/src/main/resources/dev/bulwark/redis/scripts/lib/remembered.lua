-- Follows a script whose body was wrapped in reserve() (LuaScript.loadRemembered): a reservation
-- re-sent by the client must not take a second slot. Jedis' Cluster executor re-sends a command
-- after a connection error or a read timeout, when the first may have run. Each JVM thread's last
-- reply is kept under its caller id, and a call that arrives again with the same call id gets that
-- reply instead of a new reservation (a thread re-sends only its last call).
-- KEYS[2] (optional): the limit's recent replies by caller. ARGV[4], ARGV[5]: caller, call id.
local replies, caller, call = KEYS[2], ARGV[4], ARGV[5]
if not replies then
  return reserve()
end
local last = redis.call('HGET', replies, caller)
if last then
  local id, reply = string.match(last, '^(%d+):(%-?%d+)$')
  if id == call then
    return tonumber(reply)
  end
end
local reply = reserve()
if type(reply) == 'number' then
  redis.call('HSET', replies, caller, call .. ':' .. int(reply))
  redis.call('PEXPIRE', replies, 60000)
end
return reply
