print("motionscript")
