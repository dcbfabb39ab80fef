-- Touchpad gestures for the desktop: what a typical libinput-gestures configuration does,
--
--   gesture swipe left  3  xdotool key ctrl+alt+Right     gesture pinch in   xdotool key ctrl+minus
--   gesture swipe right 3  xdotool key ctrl+alt+Left      gesture pinch out  xdotool key ctrl+plus
--   gesture swipe up    3  xdotool key ctrl+alt+Down      gesture hold on 3  rofi -show window
--   gesture swipe down  3  xdotool key ctrl+alt+Up        2-finger tap       right click
--   gesture swipe up    4  gnome-terminal
--
-- written as recognizers, with its tests: examples/scenarios/desktop.* replays a recorded
-- session and pins every action it causes. Run it live on your touchpad (`motionscript devices`
-- lists them; the keys are typed through /dev/uinput, see docs/desktop.md):
--
--   motionscript run examples/desktop.lua --device /dev/input/event7
--
-- and without touching the desktop:
--
--   motionscript run examples/desktop.lua --events examples/scenarios/desktop.events.jsonl

-- Thresholds are the defaults (docs/reference.md, Defaults): with no --surface, a touchpad that reports its
-- resolution gives millimetres, so they mean the same distance on every such pad (a swipe travels
-- 20 mm; a tap or a hold moves less than 3 mm). `r:on(state, fn)` runs fn each time r reaches state.

-- Three fingers held still: a hold, not the start of a swipe (the swipe waits for it to fail).
local hold = motion.hold{fingers = 3, duration = 0.6}
hold:on("began", function() motion.exec{"rofi", "-show", "window"} end)

-- Three-finger swipes switch workspace; the content follows the fingers (swipe left: the
-- workspace on the right comes in). `fingers = 3` means exactly three: a four-finger swipe
-- never fires these.
local workspaceKeys = {left = "ctrl+alt+Right", right = "ctrl+alt+Left", up = "ctrl+alt+Down", down = "ctrl+alt+Up"}
local swipe3 = motion.swipe{fingers = 3, requireToFail = hold}
swipe3:on("recognized", function(g) motion.keys(workspaceKeys[g.direction]) end)

-- Four fingers up: a terminal.
local swipe4 = motion.swipe{fingers = 4, direction = "up"}
swipe4:on("recognized", function() motion.exec{"gnome-terminal"} end)

-- Pinch out / in with two fingers: zoom in / out once per pinch, decided by how far it went.
local pinch = motion.scale{fingers = 2, threshold = 0.1}
pinch:on("ended", function(g)
  if g:scale() >= 1.25 then motion.keys("ctrl+plus")
  elseif g:scale() <= 0.8 then motion.keys("ctrl+minus") end
end)

-- A two-finger tap: a right click.
local tap2 = motion.tap{fingers = 2}
tap2:on("recognized", function() motion.mouse.button("right", "click") end)
