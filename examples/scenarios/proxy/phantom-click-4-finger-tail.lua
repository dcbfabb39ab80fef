-- proxy: on
-- A 4-finger swipe is the desktop's (no consumer takes 4 fingers). A 3-finger swipe consumer
-- holds the touch while its fingers land (2 frames, then 3 fingers), fails at the 4th: the
-- desktop gets every frame in order, and the 3 fingers left at the tail take nothing.
local swipe = motion.swipe{fingers = 3, consume = true}
swipe:on("recognized", function(g) motion.emit("swipe3", g.direction) end)
