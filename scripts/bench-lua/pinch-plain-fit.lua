-- The pinch-zoom-rotate of pinch.lua written by hand in plain Lua, doing the work the three
-- recognizers do: pointers by id; pan (centroid translation, threshold 10), rotation (unwrapped
-- angle of the pair's vector, threshold 5°) and scale (length ratio, threshold 0.05), each added
-- to its own value cached when it begins; and the least-squares velocity each fits on every
-- frame (100 ms of samples, as drag-plain-fit.lua). The equal-work peer of motionbench pinch.
-- Frames as motionbench pinch makes them: both fingers move in every frame.
local N = tonumber(arg[1]) or 1000000
local position, angle, size = {x = 200, y = 200}, 0, 1
local pointers, order = {}, {}

-- A ring of 128 samples and the least-squares slope over the newest 100 ms, per coordinate.
local function tracker()
  local ring = {}
  for i = 0, 127 do ring[i] = {t = 0, x = 0, y = 0} end
  return {ring = ring, head = 0, filled = 0}
end

local function track(r, t, x, y)
  r.head = (r.head + 1) % 128
  local s = r.ring[r.head]; s.t = t; s.x = x; s.y = y
  if r.filled < 128 then r.filled = r.filled + 1 end
  if r.filled < 2 then return 0, 0 end
  local newest = s
  local n, st, sx, sy, stt, stx, sty = 0, 0, 0, 0, 0, 0, 0
  local i = r.head
  for _ = 1, r.filled do
    local q = r.ring[i]
    local dt = q.t - newest.t
    if dt < -0.100 - 1e-9 then break end
    local dx, dy = q.x - newest.x, q.y - newest.y
    n = n + 1; st = st + dt; sx = sx + dx; sy = sy + dy
    stt = stt + dt * dt; stx = stx + dt * dx; sty = sty + dt * dy
    i = (i - 1) % 128
  end
  if n < 2 then return 0, 0 end
  local d = n * stt - st * st
  if d <= 1e-18 then return 0, 0 end
  return (n * stx - st * sx) / d, (n * sty - st * sy) / d
end

local pan = {tracker = tracker(), refx = 0, refy = 0, active = false, cache = nil}
local turn = {tracker = tracker(), reference = 0, unwrapped = 0, active = false, cache = 0}
local pinch = {tracker = tracker(), reference = 0, active = false, cache = 0}
local velocity = {}

local atan2 = math.atan2 or math.atan  -- LuaJIT's math.atan takes one argument

local function remainder(a, b)  -- IEEE remainder, as Swift's
  return a - b * math.floor(a / b + 0.5)
end

local function frame(t, events)
  for _, e in ipairs(events) do
    if e.phase == "down" then
      pointers[e.id] = {x = e.x, y = e.y}; order[#order + 1] = e.id
    else
      local p = pointers[e.id]; p.x = e.x; p.y = e.y
    end
  end
  local a, b = pointers[order[1]], pointers[order[2]]
  local cx, cy = (a.x + b.x) / 2, (a.y + b.y) / 2
  local vx, vy = b.x - a.x, b.y - a.y
  if events[1].phase == "down" then
    pan.refx, pan.refy = cx, cy
    turn.unwrapped = atan2(vy, vx); turn.reference = turn.unwrapped
    pinch.reference = math.sqrt(vx * vx + vy * vy)
  end
  -- Pan.
  local tx, ty = cx - pan.refx, cy - pan.refy
  velocity.px, velocity.py = track(pan.tracker, t, tx, ty)
  if not pan.active and math.sqrt(tx * tx + ty * ty) > 10 then
    pan.active = true; pan.cache = {x = position.x, y = position.y}
  end
  if pan.active then position = {x = pan.cache.x + tx, y = pan.cache.y + ty} end
  -- Rotation.
  turn.unwrapped = turn.unwrapped + remainder(atan2(vy, vx) - turn.unwrapped, 2 * math.pi)
  local rotation = turn.unwrapped - turn.reference
  velocity.rotation = track(turn.tracker, t, rotation, 0)
  if not turn.active and math.abs(rotation) > math.pi / 36 then turn.active = true; turn.cache = angle end
  if turn.active then angle = turn.cache + rotation end
  -- Scale.
  local scale = math.sqrt(vx * vx + vy * vy) / pinch.reference
  velocity.scale = track(pinch.tracker, t, scale, 0)
  if not pinch.active and math.abs(scale - 1) > 0.05 then pinch.active = true; pinch.cache = size end
  if pinch.active then size = pinch.cache * scale end
end

-- The frames motionbench pinch feeds: the pair drifts, turns and spreads.
local e1 = {id = 1, phase = "down", x = 0, y = 0}
local e2 = {id = 2, phase = "down", x = 0, y = 0}
local events = {e1, e2}
local function place(k)
  e1.x = 100 + k; e1.y = 200 + k * 0.5
  e2.x = e1.x + 100 + k * 0.01; e2.y = e1.y + k * 0.02
end

local start = os.clock()
place(0)
frame(0, events)
e1.phase, e2.phase = "move", "move"
for i = 1, N do
  place(i)
  frame(i * 0.008, events)
end
local elapsed = os.clock() - start
io.write(string.format("%.6f %.1f %.1f %.15g %.15g\n", elapsed, position.x, position.y, angle, size))
