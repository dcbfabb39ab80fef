#!/usr/bin/python3
"""The first swipe right after start fires (issue 32, "a slow moment loses a gesture"): on the
kernel benchmark `run` missed the first of three swipes, because while the first one went
through code paths still cold the reader fell behind, the kernel dropped events (SYN_DROPPED)
and the resynchronized state had the finger go down 45 px before its lift. Three one-finger
swipes right are played as soon as `run` has the device open, back to back, a frame every 2 ms
on a touchscreen with two slots (the kernel's buffer for it: 256 events, some 50 frames);
all three fire, and nothing was dropped."""
import time
from livecheck import Motionscript, Touchscreen, expect, script

SWIPES = ('motion.gesture(motion.swipe{ fingers = 1, direction = "right" }):subscribe(function(g)\n'
          '  if g.state == "recognized" then motion.emit("swipe", g.distance) end\n'
          'end)\n')

ts = Touchscreen(name="motionscript-check first swipe", slots=2)
ms = Motionscript("run", script(SWIPES, "first-swipe.lua"), "--device", ts.path)
ms.wait_open(ts.path)
for n in range(3):
    ts.touch(0, 10 + n, 200, 300 + n * 100)
    ts.syn()
    for i in range(1, 41):
        time.sleep(0.002)  # the pace of a fast touchpad, not an ordering
        ts.move(0, 200 + i * 15, 300 + n * 100 + i)
        ts.syn()
    ts.lift(0)
    ts.syn()
got = ms.wait_lines(lambda l: len([x for x in ms.lines if x.get("name") == "swipe"]) >= 3, timeout=60)
ms.signal()
code = ms.finish()
swipes = [l for l in ms.lines if l.get("name") == "swipe"]
print(f"{len(swipes)} swipes: {swipes}; stderr: {ms.err()}")
expect(code == 0, f"exit {code}: {ms.err()}")
expect(len(swipes) == 3, f"{len(swipes)} of 3 swipes fired: {swipes}; stderr: {ms.err()}")
expect("dropped" not in ms.err(), f"the kernel dropped events: {ms.err()}")
ts.close()
