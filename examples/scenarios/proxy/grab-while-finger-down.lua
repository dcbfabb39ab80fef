-- proxy: 0.05
-- The proxy takes the pad over at 0.05 s while a finger moves the pointer: that touch stays
-- the desktop's to its end (the clone gets none of it); the next touch is the clone's.
local pan = motion.pan{threshold = 1}
pan:on("ended", function(g) motion.emit("pan", g.pointers) end)
