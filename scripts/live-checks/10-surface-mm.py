"""`--surface mm` on a device that reports its resolution (EVIOCGABS): positions in millimetres
from the axis minimum, and `motion.screen.width/height` the device's size in millimetres. The same
with no option (the default, `auto`), and raw units with `--surface raw`."""
import time
from livecheck import Motionscript, Touchscreen, expect, script

ts = Touchscreen(xmax=2000, ymax=1000, resolution=20, direct=False, name="motionscript-test pad")
lua = script("""
motion.emit("screen", {w = motion.screen.width, h = motion.screen.height})
motion.pointers():emit("p")
""")
for options, expected in [(["--surface", "mm"], (25, 12.5)), ([], (25, 12.5)), (["--surface", "raw"], (500, 250))]:
    ms = Motionscript("run", lua, "--device", ts.path, *options)
    ms.wait_open(ts.path)
    ts.touch(0, 3, 500, 250); ts.syn()
    time.sleep(0.05)
    ts.lift(0); ts.syn()
    time.sleep(0.3)
    ms.signal()
    expect(ms.finish() == 0, ms.err())
    print(options, ms.lines)
    down = ms.pointer_events()[0]
    expect((down["x"], down["y"]) == expected, f"{options}: down at {down}")
    if options != ["--surface", "raw"]:
        screen = next((l for l in ms.lines if l.get("name") == "screen"), None)
        expect(screen is not None and screen["value"] == {"w": 100, "h": 50}, f"{options}: screen {screen}")
ts.close()
