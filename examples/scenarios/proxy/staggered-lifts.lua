-- proxy: on
-- A 3-finger swipe left, its fingers landing 10 ms apart and lifting 20 ms apart: consumed
-- whole. The clone sees none of it: no 2-finger tap (a right click) from the last fingers.
local swipe = motion.swipe{fingers = 3, consume = true}
swipe:on("recognized", function(g) motion.emit("swipe3", g.direction) end)
