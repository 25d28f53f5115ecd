-- Prepended to every Bulwark script when it is loaded. Kept small: it is run on every call.

-- The server's clock in microseconds: application hosts' clocks never enter a decision.
local function server_micros()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- An integral number inside a string: Lua's own conversion keeps only 14 digits (numbers given to
-- redis.call as numbers are converted exactly by Redis).
local function int(x)
  return string.format('%.0f', x)
end
