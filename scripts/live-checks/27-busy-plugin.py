#!/usr/bin/python3
"""A plugin that spins 300 ms in a callback loses no later swipe (issue 32, "a slow moment loses
a gesture"): while the daemon's only thread runs the callback, the devices are still drained
(the input drain reads them into a queue of their own), so the kernel's buffer never overflows
and the swipe made meanwhile fires once the callback returns, at its own times.

`daemon DIR --device PATH` with one plugin: at the first lift of a finger it spins 300 ms; a
swipe right is made at once, all of it while the plugin spins (70 frames of five events, one
every 3 ms, on a touchscreen with two slots whose kernel buffer holds 256 events). Before the
drain the kernel dropped the swipe's start (SYN_DROPPED) and the resynchronized state had no
finger down: the swipe never happened."""
import os
import signal
import time
import livecheck
from livecheck import Motionscript, Touchscreen, expect

folder = livecheck.watched_folder("busy-plugin")
with open(os.path.join(folder, "busy.lua"), "w") as f:
    f.write('local lifts = 0\n'
            'motion.pointers():subscribe(function(p)\n'
            '  if p.phase == "up" then\n'
            '    lifts = lifts + 1\n'
            '    if lifts == 1 then local stop = os.clock() + 0.3; while os.clock() < stop do end end\n'
            '  end\n'
            'end)\n'
            'motion.gesture(motion.swipe{ fingers = 1, direction = "right" }):subscribe(function(g)\n'
            '  if g.state == "recognized" then motion.emit("swipe", lifts) end\n'
            'end)\n')

ts = Touchscreen(name="motionscript-check busy plugin", slots=2)
ms = Motionscript("daemon", folder, "--device", ts.path)
expect(ms.wait_lines(lambda l: l.get("plugin") == "busy" and l.get("status") == "loaded") is not None,
       f"busy did not load: {ms.lines} {ms.err()}")
ms.wait_open(ts.path)


def swipe(tracking, y, frames, pace):
    ts.touch(0, tracking, 200, y)
    ts.syn()
    for i in range(1, frames + 1):
        time.sleep(pace)  # the pace of a touchpad, not an ordering
        ts.move(0, 200 + i * 8, y + i)
        ts.syn()
    ts.lift(0)
    ts.syn()


# The first swipe's lift starts the spin; the second is made while it lasts.
swipe(1, 300, 20, 0.005)
swipe(2, 500, 70, 0.003)
got = ms.wait_lines(lambda l: len([x for x in ms.lines if x.get("name") == "swipe"]) >= 2, timeout=60)
ms.signal(signal.SIGINT)
code = ms.finish()
swipes = [l for l in ms.lines if l.get("name") == "swipe"]
print(f"{len(swipes)} swipes: {swipes}; stderr: {ms.err()}")
expect(code == 0, f"exit {code}: {ms.err()}")
expect(len(swipes) == 2, f"{len(swipes)} of 2 swipes fired: {swipes}; stderr: {ms.err()}")
expect("dropped" not in ms.err(), f"the kernel dropped events: {ms.err()}")
ts.close()
livecheck.release_folder(folder)
