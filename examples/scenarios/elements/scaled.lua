-- A drag measured in an element scaled by 2 and turned a quarter turn. The element covers
-- the screen square (0,0)-(200,200): its origin is the screen point (200,0). A screen
-- translation (dx, dy) is (dy, -dx) / 2 in the element.
local e = motion.element{x = 200, y = 0, width = 100, height = 100, rotation = math.pi / 2, scale = 2}
local offset = motion.property({x = 0, y = 0})
motion.gesture(motion.pan{element = e, threshold = 0}):translation(offset, e):subscribe(offset)
offset:emit("offset")
