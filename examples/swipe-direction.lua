-- ChangeDirection (Material Motion): when a drag ends, its release velocity along x decides
-- the direction: beyond +100 units/s "forward", beyond -100 "backward", in between nothing.
local pan = motion.pan{}

motion.gesture(pan)
    :whenRecognitionState("ended")
    :velocity()
    :x()
    :thresholdRange(-100, 100)
    :rewrite{below = "backward", above = "forward"}
    :emit("direction")
