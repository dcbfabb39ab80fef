-- Drag a box (seed 001): the pan's translation is added to the box's position. Same as
-- examples/drag.lua; the default threshold of 5 swallows the first move.
local box = motion.property({x = 100, y = 200})
local pan = motion.pan{}

motion.gesture(pan):translation(box):subscribe(box)
box:emit("position")
