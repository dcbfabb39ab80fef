-- Three-finger swipes left and right switch workspaces (a plugin: one file of the config folder).
-- motionscript: timeout=0.5
for direction, key in pairs{left = "ctrl+alt+Right", right = "ctrl+alt+Left"} do
  motion.gesture(motion.swipe{fingers = 3, direction = direction}):subscribe(function(g)
    if g.state == "ended" then motion.keys(key) end
  end)
end
