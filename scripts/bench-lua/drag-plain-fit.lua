-- drag-plain.lua with the work the recognizer does besides: a least-squares velocity over the
-- last 100 ms of centroids (a ring of 128 samples), fitted on every event as the gesture value
-- carries it. The equal-work peer of the composed drag.
local N = tonumber(arg[1]) or 5000000
local threshold = 10
local box = {x = 100, y = 200}
local pointers, count = {}, 0
local refx, refy = 0, 0
local active, cache = false, nil

local function centroid()
  local sx, sy = 0, 0
  for _, p in pairs(pointers) do sx = sx + p.x; sy = sy + p.y end
  return sx / count, sy / count
end

local ring, head, filled = {}, 0, 0
for i = 0, 127 do ring[i] = {t = 0, x = 0, y = 0} end
local vx, vy = 0, 0

local function velocity(now)
  if filled < 2 then return 0, 0 end
  local newest = ring[head]
  if now - newest.t > 0.040 then return 0, 0 end
  local n, st, sx, sy, stt, stx, sty = 0, 0, 0, 0, 0, 0, 0
  local i = head
  for _ = 1, filled do
    local s = ring[i]
    local t = s.t - newest.t
    if t < -0.100 - 1e-9 then break end
    local x, y = s.x - newest.x, s.y - newest.y
    n = n + 1; st = st + t; sx = sx + x; sy = sy + y
    stt = stt + t * t; stx = stx + t * x; sty = sty + t * y
    i = (i - 1) % 128
  end
  if n < 2 then return 0, 0 end
  local d = n * stt - st * st
  if d <= 1e-18 then return 0, 0 end
  return (n * stx - st * sx) / d, (n * sty - st * sy) / d
end

local function track(t, x, y)
  head = (head + 1) % 128
  local s = ring[head]; s.t = t; s.x = x; s.y = y
  if filled < 128 then filled = filled + 1 end
  vx, vy = velocity(t)
end

local function handle(t, id, phase, x, y)
  if phase == "down" then
    pointers[id] = {x = x, y = y}; count = count + 1
    refx, refy = centroid()
  elseif phase == "move" then
    local p = pointers[id]; p.x = x; p.y = y
  else
    pointers[id] = nil; count = count - 1
    active, cache = false, nil
    return
  end
  local cx, cy = centroid()
  track(t, cx, cy)
  local tx, ty = cx - refx, cy - refy
  if not active and math.sqrt(tx * tx + ty * ty) > threshold then
    active = true
    cache = {x = box.x, y = box.y}
  end
  if active then
    box = {x = cache.x + tx, y = cache.y + ty}
  end
end

local start = os.clock()
handle(0, 1, "down", 0, 0)
for i = 1, N do handle(i * 0.008, 1, "move", i * 1.0, i * 0.5) end
handle((N + 1) * 0.008, 1, "up", N * 1.0, N * 0.5)
local elapsed = os.clock() - start
io.write(string.format("%.6f %.1f %.1f\n", elapsed, box.x, box.y))
