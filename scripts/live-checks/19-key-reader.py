#!/usr/bin/python3
"""The checks' key reader (`livecheck.key_values`) sees every press and release, even when the
check asks the kernel for the key state before the reader has read them. Asking (EVIOCGKEY,
python-evdev's `active_keys()`) flushes the key events still queued for the descriptor it is
asked on; the reader used to read the check's own descriptor, so under load check 24 saw b's
shift press and never its release while the key state said up, which looked like a stuck
modifier. Here the reader is held back until after the question, deterministically.

Standalone (python3-evdev, root, /dev/uinput): exit 0 when it passes, 1 on failure, 77 when it
cannot run here."""
import os
import sys
import threading
import time

try:
    from evdev import InputDevice, UInput, ecodes as e
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402
from livecheck import expect  # noqa: E402

if not os.path.exists("/dev/uinput"):
    livecheck.skip("no /dev/uinput (modprobe uinput)")

keyboard = UInput({e.EV_KEY: [e.KEY_LEFTSHIFT, e.KEY_A]}, name="motionscript-check key reader")
time.sleep(0.2)  # let udev-less devtmpfs settle the node
device = InputDevice(keyboard.device.path)  # as a check finds motionscript's virtual device
start = threading.Event()
shift = livecheck.key_values(device, e.KEY_LEFTSHIFT, start=start)

keyboard.write(e.EV_KEY, e.KEY_LEFTSHIFT, 1)
keyboard.syn()
expect(e.KEY_LEFTSHIFT in device.active_keys(), f"shift is not down: {device.active_keys(verbose=True)}")
keyboard.write(e.EV_KEY, e.KEY_LEFTSHIFT, 0)
keyboard.syn()
expect(e.KEY_LEFTSHIFT not in device.active_keys(), "shift is still down")
expect(e.KEY_LEFTSHIFT not in livecheck.keys_down(device), "shift is still down (asked on a descriptor of its own)")
start.set()  # the reader reads only now, after both questions
deadline = time.monotonic() + 10
while len(shift) < 2 and time.monotonic() < deadline:
    time.sleep(0.01)
expect(shift == [1, 0], f"the reader saw {shift} (expected the press and the release: [1, 0])")
print("ok: the key reader saw [1, 0] although the key state was asked twice before it read")
keyboard.close()
