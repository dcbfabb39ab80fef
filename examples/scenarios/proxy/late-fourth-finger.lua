-- proxy: on
-- Three fingers move (held: a 3-finger consumer could take them); a 4th lands at 0.08 s: the
-- consumer fails and the held frames reach the desktop in order, 80 ms late, as does the rest.
local swipe = motion.swipe{fingers = 3, consume = true}
swipe:on("recognized", function(g) motion.emit("swipe3", g.direction) end)
swipe:on("failed", function(g) motion.emit("swipe3 failed", g.pointers) end)
