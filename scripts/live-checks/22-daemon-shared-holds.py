#!/usr/bin/python3
"""Two daemon plugins holding the same key, on a real kernel (issue 19's "two plugins holding
and releasing the same key leave it down until the last release"): plugin a holds alt on its
first tap and releases it on its third; plugin b holds alt on its second tap and releases it on
its fourth. Alt must go down once (tap 1), stay down through a's release (tap 3) and go up at
b's release (tap 4), read back from motionscript's uinput device with python3-evdev.

WRITTEN FOR THE DAEMON (`motionscript daemon DIR --device PATH`): until that command exists this
check says SKIP (exit 77). Once the daemon branch is merged it runs by itself; if the daemon's
options differ, adjust DAEMON_ARGS below.

Standalone: exit 0 when it passes, 1 on failure, 77 when it cannot run here."""
import os
import shutil
import signal
import subprocess
import sys
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
# The subcommands `motionscript --help` lists (an unknown one's --help still exits 0).
usage = subprocess.run([livecheck.MOTIONSCRIPT, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
if not any(line.split()[:1] == ["daemon"] for line in usage.splitlines()):
    livecheck.skip("no `motionscript daemon` yet (enable after merging the daemon branch)")

PLUGIN = """
local n = 0
motion.pointers():filter(function(p) return p.phase == "down" end):subscribe(function()
  n = n + 1
  if n == %d then motion.keyDown("alt") end
  if n == %d then motion.keyUp("alt") end
  motion.emit("taps", n)
end)
"""

folder = os.path.join(livecheck.WORK, "daemon-shared-holds")
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
with open(os.path.join(folder, "a.lua"), "w") as f:
    f.write(PLUGIN % (1, 3))
with open(os.path.join(folder, "b.lua"), "w") as f:
    f.write(PLUGIN % (2, 4))

touch = livecheck.Touchscreen(name="motionscript-check daemon holds")
DAEMON_ARGS = ["daemon", folder, "--device", touch.path]
ms = livecheck.Motionscript(*DAEMON_ARGS)
ms.wait_open(touch.path)
# Both plugins loaded before the first tap (the device may open before they do).
for plugin in ("a", "b"):
    expect(ms.wait_lines(lambda l, p=plugin: l.get("plugin") == p and l.get("status") == "loaded", 60),
           f"plugin {plugin} did not load: {ms.err()}")


def tap(i):
    """One tap; returns once both plugins have handled it (their `taps` lines say so), however
    slow the machine: the checks below never depend on a sleep's length."""
    touch.touch(0, 100 + i, 500, 500)
    touch.syn()
    touch.lift(0)
    touch.syn()
    for plugin in ("a", "b"):
        expect(ms.wait_lines(lambda l, p=plugin: l.get("plugin") == p and l.get("name") == "taps" and l.get("value") == i, 60),
               f"plugin {plugin} did not see tap {i}: {ms.lines} {ms.err()}")


virtual = livecheck.find_device()  # the daemon opens it at start-up
expect(virtual is not None, f"no input device named '{livecheck.VIRTUAL}': {ms.err()}")
alt = livecheck.key_values(virtual, e.KEY_LEFTALT)
tap(1)
tap(2)
expect(e.KEY_LEFTALT in livecheck.keys_down(virtual), f"alt is not down with two holders: {alt}")
tap(3)
# A release that should not happen would be read back within this grace (a negative check: a
# slow machine can only make it pass wrongly, never fail wrongly).
time.sleep(0.3)
expect(alt == [1], f"alt events after plugin a released it: {alt} (expected only the press)")
expect(e.KEY_LEFTALT in livecheck.keys_down(virtual), "alt went up at plugin a's release, under plugin b's hold")
tap(4)
deadline = time.monotonic() + 10
while len(alt) < 2 and time.monotonic() < deadline:
    time.sleep(0.02)
expect(alt == [1, 0], f"alt events after the last release: {alt}")
ms.proc.send_signal(signal.SIGINT)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
touch.close()
print("ok: two daemon plugins held alt; it went up with the last release only")
