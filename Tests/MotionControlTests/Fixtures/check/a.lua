local s = motion.swipe{ fingers = 3, direction = "left" }
motion.gesture(s):subscribe(function(g)
  if g.state == "ended" then motion.keys("ctlr+alt+Left") end -- motion.keys("bogus") in a comment
end)
local h = motion.hold{ fingers = 2, duration = 500 }
motion.gesture(h):subscribe(function() motion.exec("no-such-program --x") end)
motion.gesture(h):subscribe(function() motion.mouse.button("lefty", "click") end)
