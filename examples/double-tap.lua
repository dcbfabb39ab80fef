-- A single tap and a double tap on the same element. The single tap waits for the double tap
-- to fail (single:requireToFail(double)): a lone tap is reported once the double tap's
-- interval (0.3 s by default) has run out, stamped with that time; a double tap is reported
-- at its second lift, and the single tap then fails instead of also firing.
local photo = motion.element{x = 0, y = 0, width = 300, height = 300}
local double = motion.tap{element = photo, taps = 2}
local single = motion.tap{element = photo}
single:requireToFail(double)

motion.tapSource(single):emit("single")
motion.tapSource(double):emit("double")
