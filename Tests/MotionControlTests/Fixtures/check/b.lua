local s = motion.swipe{
  fingers = 3,
  direction = "left",
}
motion.gesture(s):delay(300):subscribe(function() motion.keyDown("super") end)
