-- DirectlyManipulable (Material Motion): one card dragged, rotated and pinched at once by the
-- same two fingers. Each gesture is added to its own property (seeds 001, 002, 004): the
-- translation to the card's position, the rotation to its angle, the scale to its size.
local card = motion.element{x = 0, y = 0, width = 400, height = 400}
local position = motion.property({x = 200, y = 200})
local angle = motion.property(0)
local size = motion.property(1)

local pan = motion.pan{element = card}
local rotate = motion.rotation{element = card}
local pinch = motion.scale{element = card}

motion.gesture(pan):translation(position, card):subscribe(position)
motion.gesture(rotate):rotation(angle):subscribe(angle)
motion.gesture(pinch):scale(size):subscribe(size)

position:emit("position")
angle:emit("rotation")
size:emit("scale")
