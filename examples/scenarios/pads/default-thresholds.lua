-- The desktop configuration with every threshold left at its default (docs/reference.md, Defaults): the
-- same gestures as examples/desktop.lua, plus a swipe, a hold and a three-finger drag without
-- options. With no --surface, positions on a pad that reports its resolution are millimetres,
-- so these defaults mean the same distance on every such pad. A module: the scenarios beside it
-- (defaults-pad12.lua, defaults-pad30.lua) run it over two pads' recordings.
local workspaceKeys = {left = "ctrl+alt+Right", right = "ctrl+alt+Left", up = "ctrl+alt+Down", down = "ctrl+alt+Up"}
local hold = motion.hold{fingers = 3}
hold:on("began", function() motion.exec{"rofi", "-show", "window"} end)
motion.swipe{fingers = 3, requireToFail = hold}:on("recognized", function(g) motion.keys(workspaceKeys[g.direction]) end)
motion.swipe{fingers = 4, direction = "up"}:on("recognized", function() motion.exec{"gnome-terminal"} end)
motion.tap{fingers = 2}:on("recognized", function() motion.mouse.button("right") end)

-- Without `fingers`, swipes and holds need two or more: one finger on a touchpad is the pointer.
motion.swipe{}:on("recognized", function(g) motion.exec{"notify-send", g.pointers .. "-finger swipe " .. g.direction} end)
motion.hold{}:on("began", function(g) motion.exec{"notify-send", g.pointers .. "-finger hold"} end)
-- A drag begins past 5 mm: a 4 mm nudge is not one.
motion.pan{fingers = 3}:on("began", function() motion.keyDown("super") end)
motion.pan{fingers = 3}:on("ended", function() motion.keyUp("super") end)
