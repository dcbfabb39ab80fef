"""A two-finger gesture read with --grab: motionscript sees both pointers with the device's values
and times; a second reader of the same device sees nothing while the grab holds."""
import select
import time
from evdev import InputDevice
from livecheck import POINTERS, Motionscript, Touchscreen, expect, phases, script

ts = Touchscreen()
other = InputDevice(ts.path)
ms = Motionscript("run", script(POINTERS), "--device", ts.path, "--grab")
ms.wait_open(ts.path)
ts.touch(0, 10, 100, 200); ts.touch(1, 11, 300, 400); ts.syn()
time.sleep(0.1)
for step in range(1, 6):
    ts.move(0, 100 + 10 * step, 200); ts.move(1, 300 - 10 * step, 400); ts.syn()
    time.sleep(0.02)
ts.lift(0); ts.lift(1); ts.syn()
time.sleep(0.5)
ready, _, _ = select.select([other.fd], [], [], 0.5)
seen = list(other.read()) if ready else []
ms.signal()
code = ms.finish()
events = ms.pointer_events()
print(events)
expect(code == 0, f"exit {code}: {ms.err()}")
expect(seen == [], f"the second reader saw {len(seen)} events despite --grab")
expect(phases(events) == [(10, "down"), (11, "down")] + [(10, "move"), (11, "move")] * 5 + [(10, "up"), (11, "up")],
       f"pointer phases {phases(events)}")
expect([(p["x"], p["y"]) for p in events[-4:-2]] == [(150, 200), (250, 400)], "last positions")
expect(events[0]["t"] == 0, "the first frame is at t 0")
expect(0.1 <= events[2]["t"] < 5, f"first move at t {events[2]['t']}")
# Released on exit: now the second reader gets the events.
ts.touch(0, 12, 5, 5); ts.syn()
ready, _, _ = select.select([other.fd], [], [], 2)
expect(ready and len(list(other.read())) > 0, "the second reader sees nothing after motionscript ended")
ts.close()
