-- Pinch to zoom, continuously: while two fingers pinch, each factor of 1.25 in the pinch's
-- scale is one zoom step, typed as Ctrl+Plus (spreading) or Ctrl+Minus (closing) as it is
-- crossed, so the page follows the fingers instead of jumping once at the end.
-- (For applications that zoom on Ctrl+wheel: hold motion.keyDown("ctrl") from "began" to
-- "ended" and type motion.mouse.scroll(0, -1) / motion.mouse.scroll(0, 1) per step instead.)
-- Replay: motionscript run examples/pinch-zoom-keys.lua --events examples/scenarios/pinch-zoom-keys.events.jsonl
local pinch = motion.scale{fingers = 2}
local STEP = math.log(1.25)
local zoom = 0

motion.gesture(pinch):subscribe(function(g)
  if g.state == "began" then zoom = 0 end
  if g.state == "began" or g.state == "changed" then
    local l = math.log(g:scale()) / STEP
    local target = l >= 0 and math.floor(l) or -math.floor(-l)
    while zoom < target do motion.keys("ctrl+plus"); zoom = zoom + 1 end
    while zoom > target do motion.keys("ctrl+minus"); zoom = zoom - 1 end
  end
end)
