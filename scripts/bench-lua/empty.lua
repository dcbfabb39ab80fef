-- No Lua per event: what feeding the frames costs by itself (subtracted from the per-event rows).
box = motion.property({x = 0, y = 0})
