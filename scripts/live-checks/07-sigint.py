"""SIGINT mid-gesture with --grab: the pointers down are cancelled, exit 0, the grab is released."""
import time
from evdev import InputDevice
from livecheck import POINTERS, Motionscript, Touchscreen, expect, phases, script

ts = Touchscreen()
ms = Motionscript("run", script(POINTERS), "--device", ts.path, "--grab")
ms.wait_open(ts.path)
ts.touch(0, 40, 300, 300); ts.syn()
time.sleep(0.05)
ts.move(0, 310, 305); ts.syn()
time.sleep(0.3)
ms.signal()
code = ms.finish()
events = ms.pointer_events()
expect(code == 0, f"exit {code}: {ms.err()}")
expect(phases(events) == [(40, "down"), (40, "move"), (40, "cancel")], f"phases {phases(events)}")
expect((events[-1]["x"], events[-1]["y"]) == (310, 305), f"cancel at {events[-1]}")
dev = InputDevice(ts.path)
try:
    dev.grab()  # EBUSY if motionscript still held it
    dev.ungrab()
except OSError as error:
    expect(False, f"the grab was not released: {error}")
ts.close()
