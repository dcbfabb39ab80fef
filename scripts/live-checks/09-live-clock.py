"""Time flows on a live device: with a finger held still, `delay(0.5)` fires without further input,
stamped 0.5 s after the touch; a lone tap (single requires the double to fail) is decided when the
double tap's interval runs out, not at the next touch; at the end of input what is still scheduled
settles (Ctrl-C with delays pending)."""
import time
from livecheck import Motionscript, Touchscreen, expect, script

ts = Touchscreen()
lua = script("""
motion.pointers():filter(function(p) return p.phase == "down" end):delay(0.5)
  :map(function(p) return p.id end):emit("late")
local double = motion.tap{taps = 2}
local single = motion.tap{}
single:requireToFail(double)
motion.tapSource(single):emit("single")
motion.pointers():filter(function(p) return p.phase == "up" end):delay(2)
  :map(function(p) return p.id end):emit("settled")
""")
ms = Motionscript("run", lua, "--device", ts.path)
ms.wait_open(ts.path)
ts.touch(0, 60, 100, 100); ts.syn()
late = ms.wait_lines(lambda l: l.get("name") == "late", timeout=20)
expect(late is not None, "the delay did not fire while the finger was held still")
expect(late["t"] == 0.5 and late["value"] == 60, f"late line {late}")
expect(0 in ts.down, "the finger is still down")
# A quick tap: decided once the interval (0.3 s) runs out, with no further input.
ts.lift(0); ts.syn()
time.sleep(0.05)
ts.touch(0, 61, 100, 100); ts.syn()
time.sleep(0.05)
ts.lift(0); ts.syn()
single = ms.wait_lines(lambda l: l.get("name") == "single" and l.get("state") == "active", timeout=20)
expect(single is not None, "the lone tap was not decided without further input")
ups = []
ms.signal()
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
settled = [l for l in ms.lines if l.get("name") == "settled"]
print(ms.lines)
expect([l["value"] for l in settled] == [60, 61], f"pending delays settled at the end: {settled}")
taps = [l for l in ms.lines if l.get("name") == "single" and l.get("state") == "active"]
expect(len(taps) == 1, f"{len(taps)} single taps")
ts.close()
