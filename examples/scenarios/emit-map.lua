-- Raw pointers through map, filter and dedupe; motion.emit with a table and motion.time.
local helper = require "scenario_helper"

local pointers = motion.pointers()
pointers:map(function(p) return {id = p.id, phase = p.phase} end):emit("phase")
pointers:filter(function(p) return p.phase == "move" end)
  :map(function(p) return helper.distance(p.x, p.y) end)
  :emit("distance")
pointers:map(function(p) return p.id end):dedupe():emit("id")
motion.emit("setup", {time = motion.time(), list = {1, 2, 3}})
