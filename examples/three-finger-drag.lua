-- Three-finger drag, as on a Mac: three fingers on the touchpad press the left button and move
-- the pointer; lifting them releases it. `consume = true` keeps the three fingers from the
-- desktop under `--proxy` (docs/desktop.md, "The proxy"): no 3-finger gesture of its own fires,
-- while one and two fingers still move the pointer, scroll and tap as always.
local speed = 4  -- pointer pixels per millimetre the fingers move

local drag = motion.pan{fingers = 3, threshold = 1, consume = true}
local last
drag:on("began", function(g)
  last = g:translation()
  motion.mouse.button("left", "down")
end)
drag:on("changed", function(g)
  local t = g:translation()
  motion.mouse.move((t.x - last.x) * speed, (t.y - last.y) * speed)
  last = t
end)
local function release() motion.mouse.button("left", "up") end
drag:on("ended", release)
drag:on("cancelled", release)
