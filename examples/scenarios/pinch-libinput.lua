-- A two-finger spread from a libinput recording (touchpad, protocol B), in raw device units:
-- the fingers go from 200 apart to 400 apart, so the size doubles (seed 004).
local size = motion.property(1)
motion.gesture(motion.scale{}):scale(size):subscribe(size)
size:emit("size")
