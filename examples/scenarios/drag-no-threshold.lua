-- The drag with threshold 0: every move counts, and the stream's states are emitted too.
local box = motion.property({x = 100, y = 200})
local pan = motion.pan{threshold = 0}

motion.gesture(pan):translation(box):emit("position")
