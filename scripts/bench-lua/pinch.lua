-- The pinch-zoom-rotate pipeline of examples/pinch-zoom-rotate.lua (DirectlyManipulable), composed
-- in Lua: pan, rotation and scale of the same two fingers, each added to its own property. The
-- benchmark (motionbench pinch) feeds it two-finger frames.
position = motion.property({x = 200, y = 200})
angle = motion.property(0)
size = motion.property(1)

local pan = motion.pan{}
local rotate = motion.rotation{}
local pinch = motion.scale{}

motion.gesture(pan):translation(position):subscribe(position)
motion.gesture(rotate):rotation(angle):subscribe(angle)
motion.gesture(pinch):scale(size):subscribe(size)
