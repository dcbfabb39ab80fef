"""The kernel sends only values that change: a first touch at the X of the last touch before
motionscript started carries no X. Reading starts from the device's state (EVIOCGMTSLOTS), so the
touch comes out at its real position, not at x 0."""
import time
from livecheck import POINTERS, Motionscript, Touchscreen, expect, script

ts = Touchscreen(xmax=1919, ymax=1079)
ts.touch(0, 1, 1500, 200); ts.syn(); time.sleep(0.05)
ts.lift(0); ts.syn(); time.sleep(0.05)             # before motionscript runs
ms = Motionscript("run", script(POINTERS), "--device", ts.path)
ms.wait_open(ts.path)
ts.touch(0, 2, 1500, 900); ts.syn(); time.sleep(0.05)  # X unchanged: not sent by the kernel
ts.lift(0); ts.syn(); time.sleep(0.3)
ms.signal()
expect(ms.finish() == 0, ms.err())
events = [(p["id"], p["phase"], p["x"], p["y"]) for p in ms.pointer_events()]
print(events)
expect(events == [(2, "down", 1500, 900), (2, "up", 1500, 900)], f"{events}")
ts.close()
