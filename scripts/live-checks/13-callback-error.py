"""On a live device a callback error does not end the session: it is reported with its
traceback, that subscription stops, the others go on; the run exits 1 at the end."""
import time
from livecheck import Motionscript, Touchscreen, expect, script

ts = Touchscreen()
lua = script("""
local n = 0
motion.pointers():subscribe(function(p)
  n = n + 1
  if n == 2 then error("boom on the second event") end
  motion.emit("fragile", n)
end)
motion.pointers():map(function(p) return p.phase end):emit("steady")
""")
ms = Motionscript("run", lua, "--device", ts.path)
ms.wait_open(ts.path)
ts.touch(0, 1, 10, 10); ts.syn(); time.sleep(0.05)
for x in (20, 30, 40):
    ts.move(0, x, 10); ts.syn(); time.sleep(0.05)
ts.lift(0); ts.syn(); time.sleep(0.3)
ms.signal()
code = ms.finish()
print(ms.lines, ms.err())
expect(code == 1, f"exit {code}")
expect([l["value"] for l in ms.lines if l.get("name") == "fragile"] == [1], "fragile stopped after its error")
expect([l["value"] for l in ms.lines if l.get("name") == "steady"] == ["down", "move", "move", "move", "up"], "steady went on")
err = ms.err()
expect("boom on the second event" in err and "stack traceback" in err and "the run goes on" in err, err)
expect("1 callback error" in err, err)
ts.close()
