-- Drag a box: the pan gesture's translation is added to the box's position (seed 001).
local box = motion.property({x = 100, y = 200})
local pan = motion.pan{}

motion.gesture(pan):translation(box):subscribe(box)
box:emit("position")
