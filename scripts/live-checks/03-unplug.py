"""Unplugging the device mid-gesture cancels the pointers that are down and ends with exit 0."""
import time
from livecheck import POINTERS, Motionscript, Touchscreen, expect, phases, script

ts = Touchscreen()
ms = Motionscript("run", script(POINTERS), "--device", ts.path)
ms.wait_open(ts.path)
ts.touch(0, 7, 100, 100); ts.touch(1, 8, 500, 500); ts.syn()
time.sleep(0.05)
ts.move(0, 120, 100); ts.syn()
time.sleep(0.3)
ts.close()
code = ms.finish()
events = ms.pointer_events()
print(events, ms.err())
expect(code == 0, f"exit {code}: {ms.err()}")
expect(phases(events) == [(7, "down"), (8, "down"), (7, "move"), (7, "cancel"), (8, "cancel")], f"phases {phases(events)}")
expect((events[3]["x"], events[3]["y"]) == (120, 100), "cancel at the last position")
expect("disappeared" in ms.err(), f"stderr says why: {ms.err()}")
