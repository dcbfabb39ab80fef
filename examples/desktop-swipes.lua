-- Takes the 3-finger swipes from GNOME and KDE: with `--proxy` the desktop reads a clone of the
-- touchpad, and a swipe recognized here never reaches it (`consume = true`), so the workspace
-- switch is this script's alone (docs/desktop.md, "The proxy"). A 3-finger touch that is no
-- swipe (too short) reaches the desktop when it lifts; 4 fingers stay the desktop's.
local keys = {left = "super+pagedown", right = "super+pageup", up = "super+s", down = "super+d"}
for direction, chord in pairs(keys) do
  motion.swipe{fingers = 3, direction = direction, consume = true}
    :on("recognized", function() motion.keys(chord) end)
end
