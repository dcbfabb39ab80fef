-- A Lua callback per pointer event: the host builds {id, phase, x, y} and calls the function.
box = motion.property({x = 0, y = 0})
local sum = 0
motion.pointers():subscribe(function(e) sum = sum + e.x end)
