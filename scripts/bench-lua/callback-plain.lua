-- The peer of callback.lua in plain Lua: the same {id, phase, x, y} table per event, the same
-- function called with it. `empty` runs the loop alone (subtracted), `map` also builds the point.
local N = tonumber(arg[1]) or 5000000
local mode = arg[2] or "callback"
local sum = 0
local box = {x = 0, y = 0}
local callback = function(e) sum = sum + e.x end
local mapper = function(e) return {x = e.x, y = e.y} end
local start = os.clock()
if mode == "empty" then
  for i = 1, N do local x, y = i * 1.0, i * 0.5 end
elseif mode == "map" then
  for i = 1, N do box = mapper({id = 1, phase = "move", x = i * 1.0, y = i * 0.5}) end
else
  for i = 1, N do callback({id = 1, phase = "move", x = i * 1.0, y = i * 0.5}) end
end
io.write(string.format("%.6f %.1f %.1f\n", os.clock() - start, box.x, box.y))
