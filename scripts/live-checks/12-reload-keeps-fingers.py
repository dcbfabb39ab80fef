"""`run --watch --device`: a save while a finger is down reloads the script; the new version gets
the finger `down` where it is at the reload time, its setup runs at that input time (not 0), a
reload line marks the swap on stdout, and the drag goes on in the new version."""
import os
import time
from livecheck import WORK, Motionscript, Touchscreen, expect, script

ts = Touchscreen()
path = script('motion.emit("setup", {v = 1, t = motion.time()})\n'
              'motion.pointers():map(function(p) return p.phase .. " " .. p.x end):emit("v1")\n', name="reload.lua")
ms = Motionscript("run", path, "--device", ts.path, "--watch")
ms.wait_open(ts.path)
ts.touch(0, 9, 100, 100); ts.syn(); time.sleep(0.05)
ts.move(0, 120, 100); ts.syn(); time.sleep(0.3)
tmp = os.path.join(WORK, "reload.lua.tmp")
with open(tmp, "w") as f:
    f.write('motion.emit("setup", {v = 2, t = motion.time()})\n'
            'motion.pointers():map(function(p) return p.phase .. " " .. p.x end):emit("v2")\n')
os.rename(tmp, path)
mark = ms.wait_lines(lambda l: "reload" in l, timeout=30)
expect(mark is not None, f"no reload line on stdout: {ms.lines} {ms.err()}")
time.sleep(0.2)
ts.move(0, 140, 100); ts.syn(); time.sleep(0.05)
ts.lift(0); ts.syn(); time.sleep(0.3)
ms.signal()
code = ms.finish()
print(ms.lines, ms.err())
expect(code == 0, f"exit {code}: {ms.err()}")
expect(mark["reload"] == "reload.lua" and mark["version"] == 2 and mark["t"] > 0.3, f"reload line {mark}")
setup2 = next(l for l in ms.lines if l.get("name") == "setup" and l["value"]["v"] == 2)
expect(setup2["t"] == mark["t"] and setup2["value"]["t"] == mark["t"], f"v2 setup at the reload time: {setup2}")
v2 = [(l["t"], l["value"]) for l in ms.lines if l.get("name") == "v2"]
expect([v for _, v in v2] == ["down 120.0", "move 140.0", "up 140.0"], f"v2 saw {v2}")
expect(v2[0][0] == mark["t"] and v2[1][0] > mark["t"], f"v2 times {v2}")
expect([l["value"] for l in ms.lines if l.get("name") == "v1"] == ["down 100.0", "move 120.0"], "v1 lines")
ts.close()
expect(round(mark["t"], 6) == mark["t"], f"the reload time is whole microseconds: {mark['t']}")
