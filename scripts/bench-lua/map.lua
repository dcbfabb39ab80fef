-- A Lua `map` per pointer event: the event goes in, a point {x, y} comes back into the stream.
box = motion.property({x = 0, y = 0})
motion.pointers():map(function(e) return {x = e.x, y = e.y} end):subscribe(box)
