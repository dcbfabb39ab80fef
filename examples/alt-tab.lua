-- Alt-Tab by swiping, a continuous gesture: three fingers moving sideways hold Alt and tap
-- Tab once per 20 mm travelled to the right (Shift+Tab per 20 mm back to the left); Alt is
-- let go when the fingers lift, or when the gesture is cancelled (a fourth finger lands).
-- Distances are millimetres on a touchpad that reports its resolution (the default; docs/reference.md,
-- Defaults); the drag begins past the default 5 mm, so a nudge holds no Alt.
-- Replay: motionscript run examples/alt-tab.lua --events examples/scenarios/alt-tab.events.jsonl
local pan = motion.pan{fingers = 3}
local STEP = 20
local tabs = 0

-- Whole steps travelled, toward zero: 30 → 1, -30 → -1, -10 → 0.
local function steps(x)
  if x >= 0 then return math.floor(x / STEP) else return -math.floor(-x / STEP) end
end

motion.gesture(pan):subscribe(function(g)
  if g.state == "began" then
    tabs = 0
    motion.keyDown("alt")
  end
  if g.state == "began" or g.state == "changed" then
    local target = steps(g:translation().x)
    while tabs < target do motion.keys("Tab"); tabs = tabs + 1 end
    while tabs > target do motion.keys("shift+Tab"); tabs = tabs - 1 end
  elseif g.state == "ended" or g.state == "cancelled" then
    motion.keyUp("alt")
  end
end)
