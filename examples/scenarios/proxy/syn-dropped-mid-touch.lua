-- proxy: on
-- A finger presses the clickpad; the kernel drops events at 0.15 s (the button's release and
-- the lift are lost). The clone lifts the finger and releases the button at once (nothing stuck);
-- the next touch reaches it whole.
motion.pointers():subscribe(function(p)
    if p.phase ~= "move" then motion.emit("pointer", p.phase) end
end)
