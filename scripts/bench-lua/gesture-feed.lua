-- The recognizer of gesture.lua with no Lua per event (subtracted from the gesture row).
box = motion.property({x = 0, y = 0})
local pan = motion.pan()
