#!/usr/bin/python3
"""Key holds shared on one uinput device, on a real kernel: two sessions of one process holding
the same key leave it down until the last one releases it (read back with python3-evdev).

The two sessions are the two versions of a `run --watch` reload: version 1 holds alt; version 2
holds alt too when it loads, and version 1, closed after it, releases its hold; alt stays down
(before the action hub, version 1's release sent alt up under version 2's hold). Version 3
holds nothing: version 2's release is the last and alt goes up. (22-daemon-shared-holds.py does
the same with two daemon plugins.)

Standalone: exit 0 when it passes, 1 on failure, 77 when it cannot run here."""
import os
import signal
import sys
import threading
import time

try:
    from evdev import ecodes as e
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402
from livecheck import expect  # noqa: E402

if not os.path.exists("/dev/uinput"):
    livecheck.skip("no /dev/uinput (modprobe uinput)")


class VirtualDevice:
    """motionscript's uinput device once it exists; its KEY_LEFTALT events collected as they come."""

    def __init__(self, timeout=20):
        self.device = livecheck.find_device(timeout=timeout)
        expect(self.device is not None, f"no input device named '{livecheck.VIRTUAL}' appeared within {timeout} s")
        self.alt = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for event in self.device.read_loop():
                if event.type == e.EV_KEY and event.code == e.KEY_LEFTALT:
                    self.alt.append(event.value)
        except OSError:
            pass

    def wait_alt(self, count, timeout=20):
        deadline = time.monotonic() + timeout
        while len(self.alt) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.alt)

    def alt_down(self):
        # On a descriptor of its own: asking on the reader's flushes key events it has not read.
        return e.KEY_LEFTALT in livecheck.keys_down(self.device)


def wait_line(ms, test, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(test(line) for line in ms.lines):
            return True
        time.sleep(0.05)
    return False


HOLD = 'motion.keyDown("alt")\n-- version %d\n'
touch = livecheck.Touchscreen(name="motionscript-check shared holds")
lua = livecheck.script(HOLD % 1, "shared-holds.lua")
ms = livecheck.Motionscript("run", lua, "--device", touch.path, "--watch")
ms.wait_open(touch.path)
virtual = VirtualDevice()
expect(virtual.alt_down(), "version 1 holds alt, but the kernel has it up")

livecheck.script(HOLD % 2, "shared-holds.lua")
expect(wait_line(ms, lambda l: l.get("version") == 2), f"no reload to version 2: {ms.lines} {ms.err()}")
# Version 1's release line came, and alt is still down: version 2 holds it.
expect(wait_line(ms, lambda l: l.get("action") == "keyUp" and l.get("auto")), f"no release line for version 1: {ms.lines}")
time.sleep(0.3)  # a release the kernel would deliver has had time to arrive (the check below is absence)
expect(virtual.alt == [], f"alt events after the first reload: {virtual.alt} (expected none)")
expect(virtual.alt_down(), "alt went up when version 1 released it, under version 2's hold")

livecheck.script("-- version 3 holds nothing\n", "shared-holds.lua")
got = virtual.wait_alt(1)
expect(got == [0], f"alt events after version 2 closed: {got} (expected the release)")
expect(not virtual.alt_down(), "alt still down after its last holder released it")
ms.proc.send_signal(signal.SIGINT)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
touch.close()
print("ok: two holders of alt on one uinput device; it went up with the last release only")
