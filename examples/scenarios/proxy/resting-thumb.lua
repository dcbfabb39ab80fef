-- proxy: on
-- A thumb rests on the pad: held 2 frames at most (it could become 3 fingers), then the
-- desktop's. Three fingers swipe above it: 4 fingers down, the 3-finger consumer fails, and the
-- desktop gets them too.
local swipe = motion.swipe{fingers = 3, consume = true}
swipe:on("recognized", function(g) motion.emit("swipe3", g.direction) end)
