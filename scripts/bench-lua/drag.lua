-- The drag pipeline of examples/drag.lua, composed in Lua; the benchmark feeds it frames.
box = motion.property({x = 100, y = 200})
local pan = motion.pan{}
motion.gesture(pan):translation(box):subscribe(box)
