#!/usr/bin/python3
"""`daemon --proxy` (issue 31) with a touchpad plugged in after it started, unplugged and
plugged in again: each time it appears it gets one clone (the clone itself, a touchpad too, is
never taken: `touchpad` is the daemon's default selector), a plugin's consuming 3-finger swipe
is recognized, and the clone goes with the pad; SIGTERM removes the clone and ends with 0."""
import os
import signal
import time

from livecheck import Clickpad, Motionscript, WORK, clones, expect, fail, release_folder, wait_until, watched_folder

folder = watched_folder("daemon-proxy")
with open(os.path.join(folder, "swipes.lua"), "w") as f:
    f.write('motion.swipe{fingers = 3, consume = true}\n'
            '  :on("recognized", function(g) motion.emit("swipe3", g.direction) end)\n')
ms = Motionscript("daemon", folder, "--proxy", "--socket", os.path.join(WORK, "proxy-29.sock"), "--flight-recorder", "0")
if not ms.wait_stderr("waiting for one to be plugged in", timeout=60):
    ms.signal(signal.SIGKILL)
    fail(f"the daemon did not start: {ms.err()}")
expect(clones() == [], f"clones before any pad: {clones()}")

for round in (1, 2):
    pad = Clickpad()
    if not wait_until(lambda: ms.err().count("the desktop reads its clone") == round, timeout=30):
        ms.signal(signal.SIGKILL)
        fail(f"round {round}: no clone for the pad plugged in: {ms.err()}")
    expect(wait_until(lambda: len(clones()) == 1), f"round {round}: clones {clones()}")
    time.sleep(1.0)  # the clone's own hotplug was seen (and passed over) by now
    expect(ms.err().count("proxying") == round, f"round {round}: the clone was taken over too: {ms.err()}")
    pad.swipe3(first_id=100 * round)
    got = ms.wait_lines(lambda l: l.get("name") == "swipe3" and sum(1 for x in ms.lines if x.get("name") == "swipe3") >= round,
                        timeout=30)
    expect(got is not None, f"round {round}: the plugin did not recognize the swipe: {ms.lines}; {ms.err()}")
    pad.close()
    expect(wait_until(lambda: clones() == []), f"round {round}: the clone outlived its pad: {clones()}")

pad = Clickpad()
expect(wait_until(lambda: len(clones()) == 1, timeout=30), f"no clone for the third pad: {ms.err()}")
ms.signal(signal.SIGTERM)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
expect(clones() == [], f"the clone outlived the daemon: {clones()}")
pad.close()
release_folder(folder)
print("ok: one clone per pad plugged in, none for the clone itself; the swipe consumed each time; gone with the pad and with the daemon")
