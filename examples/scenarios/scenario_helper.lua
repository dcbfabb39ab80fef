-- A module required by emit-map.lua: no events beside it, so `motionscript test` skips it.
local M = {}
function M.distance(x, y) return math.sqrt(x * x + y * y) end
return M
