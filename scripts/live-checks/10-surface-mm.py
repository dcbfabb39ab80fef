"""`--surface mm` on a device that reports its resolution (EVIOCGABS): positions in millimetres
from the axis minimum, and `motion.screen.width/height` the device's size in millimetres."""
import time
from livecheck import Motionscript, Touchscreen, expect, script

ts = Touchscreen(xmax=2000, ymax=1000, resolution=20, direct=False, name="motionscript-test pad")
lua = script("""
motion.emit("screen", {w = motion.screen.width, h = motion.screen.height})
motion.pointers():emit("p")
""")
ms = Motionscript("run", lua, "--device", ts.path, "--surface", "mm")
ms.wait_open(ts.path)
ts.touch(0, 3, 500, 250); ts.syn()
time.sleep(0.05)
ts.lift(0); ts.syn()
time.sleep(0.3)
ms.signal()
expect(ms.finish() == 0, ms.err())
screen = next((l for l in ms.lines if l.get("name") == "screen"), None)
print(ms.lines)
expect(screen is not None and screen["value"] == {"w": 100, "h": 50}, f"screen {screen}")
down = ms.pointer_events()[0]
expect((down["x"], down["y"]) == (25, 12.5), f"down at {down}")
ts.close()
