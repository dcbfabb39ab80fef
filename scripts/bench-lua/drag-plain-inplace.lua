-- drag-plain.lua written for speed: the box and its cached start are updated in place, so no
-- table is made per event.
local N = tonumber(arg[1]) or 5000000
local threshold = 10
local box = {x = 100, y = 200}
local pointers, count = {}, 0
local refx, refy = 0, 0
local active, cachex, cachey = false, 0, 0

local function centroid()
  local sx, sy = 0, 0
  for _, p in pairs(pointers) do sx = sx + p.x; sy = sy + p.y end
  return sx / count, sy / count
end

local function handle(t, id, phase, x, y)
  if phase == "down" then
    pointers[id] = {x = x, y = y}; count = count + 1
    refx, refy = centroid()
  elseif phase == "move" then
    local p = pointers[id]; p.x = x; p.y = y
  else
    pointers[id] = nil; count = count - 1
    active = false
    return
  end
  local cx, cy = centroid()
  local tx, ty = cx - refx, cy - refy
  if not active and math.sqrt(tx * tx + ty * ty) > threshold then
    active = true
    cachex, cachey = box.x, box.y
  end
  if active then
    box.x, box.y = cachex + tx, cachey + ty
  end
end

local start = os.clock()
handle(0, 1, "down", 0, 0)
for i = 1, N do handle(i * 0.008, 1, "move", i * 1.0, i * 0.5) end
handle((N + 1) * 0.008, 1, "up", N * 1.0, N * 0.5)
local elapsed = os.clock() - start
io.write(string.format("%.6f %.1f %.1f\n", elapsed, box.x, box.y))
