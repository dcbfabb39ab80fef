-- proxy: on
-- A 2-finger swipe left consumes (back in a browser, say). A 2-finger scroll down is held only
-- until it has gone 5 mm down (a quarter of the swipe's 20 mm), then reaches the desktop; the
-- swipe left is consumed (no horizontal scroll).
local back = motion.swipe{fingers = 2, direction = "left", consume = true}
back:on("recognized", function(g) motion.emit("back", g.distance) end)
