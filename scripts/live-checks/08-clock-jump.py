"""Setting the wall clock back an hour mid-gesture does not show in `t` (monotonic timestamps)."""
import time
from livecheck import POINTERS, Motionscript, Touchscreen, expect, script

ts = Touchscreen()
ms = Motionscript("run", script(POINTERS), "--device", ts.path)
ms.wait_open(ts.path)
ts.touch(0, 50, 100, 100); ts.syn()
time.sleep(0.3)
began = time.monotonic()
time.clock_settime(time.CLOCK_REALTIME, time.time() - 3600)
try:
    ts.move(0, 150, 100); ts.syn()
    time.sleep(0.3)
    ts.lift(0); ts.syn()
    time.sleep(0.3)
finally:
    time.clock_settime(time.CLOCK_REALTIME, time.time() + 3600 - (time.monotonic() - began) * 0)
ms.signal()
expect(ms.finish() == 0, ms.err())
ts_ = [p["t"] for p in ms.pointer_events()]
print(ts_)
expect(len(ts_) == 3, f"{len(ts_)} pointer events")
expect(0.25 < ts_[1] < 30 and 0.5 < ts_[2] < 60 and ts_[1] < ts_[2], f"times {ts_}")
ts.close()
