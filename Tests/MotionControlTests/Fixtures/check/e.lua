local unused = motion.gesture(motion.tap{}):map(function(g) return g.state end)
local h = motion.hold{ fingers = 3, duration = 0.5 }
motion.gesture(h):emit("hold")
