-- A Lua callback per gesture value: the pan's value handed to Lua, one method called on it
-- (its translation, a point table). gesture-feed.lua runs the same recognizer without it.
box = motion.property({x = 0, y = 0})
local pan = motion.pan()
local sum = 0
motion.gesture(pan):subscribe(function(g) sum = sum + g:translation().x end)
