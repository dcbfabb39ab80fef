"""`--surface WxH` maps the axis ranges read with EVIOCGABS (here 0..1919 x 0..1079) onto WxH."""
import time
from livecheck import POINTERS, Motionscript, Touchscreen, expect, script

ts = Touchscreen(xmax=1919, ymax=1079)
ms = Motionscript("run", script(POINTERS), "--device", ts.path, "--surface", "960x540")
ms.wait_open(ts.path)
for x, y in [(0, 0), (1919, 1079), (1000, 500)]:
    ts.touch(0, 1, x, y); ts.syn(); time.sleep(0.02)
    ts.lift(0); ts.syn(); time.sleep(0.02)
time.sleep(0.3)
ms.signal()
expect(ms.finish() == 0, ms.err())
downs = [(p["x"], p["y"]) for p in ms.pointer_events() if p["phase"] == "down"]
want = [(0, 0), (960, 540), (1000 * 960 / 1919, 500 * 540 / 1079)]
print(downs)
expect(len(downs) == 3, f"downs {downs}")
for got, exp in zip(downs, want):
    expect(abs(got[0] - exp[0]) < 1e-9 and abs(got[1] - exp[1]) < 1e-9, f"{got} != {exp}")
ts.close()
