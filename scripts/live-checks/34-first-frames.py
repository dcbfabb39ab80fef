#!/usr/bin/python3
"""Are the first frames after the daemon's start slower than the steady state? (issue 32, item
19: "warm the per-frame path at start"). A measurement with a correctness check, not a speed
limit (figures depend on the machine): `daemon DIR --device PATH --dry-run` with one plugin (a
one-finger swipe right, and a line per pointer event, so each frame's end is seen); eight swipes
of 22 frames, each frame written alone and waited for (its line read, then 20 ms for the writer
thread). Per frame, the daemon's CPU time (every thread's, from /proc/PID/task/*/schedstat, in
µs) and the latency from the write to its line (ms). Printed: the first frame, the first swipe
and the steady swipes (5-8), median and total, and the page faults. Checked: every frame gave its
line and every swipe fired. Repeatable figures: `LIVE_ICOUNT=0 scripts/test-live 34` (the VM's
clock counts instructions, 1 ns each: a "µs" of CPU is then 1,000 instructions, kernel and user
space); docs/performance.md "The first frames" has them, before and after the warm-up."""
import os
import statistics
import time
import livecheck
from livecheck import Motionscript, Touchscreen, expect

PLUGIN = ('motion.pointers():subscribe(function(p) motion.emit("p", p.x) end)\n'
          'motion.gesture(motion.swipe{ fingers = 1, direction = "right" }):subscribe(function(g)\n'
          '  if g.state == "recognized" then motion.emit("swipe", g.distance) end\n'
          'end)\n')

folder = os.path.join(livecheck.WORK, "first-frames")
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "frames.lua"), "w") as f:
    f.write(PLUGIN)

ts = Touchscreen(name="motionscript-check first frames", slots=2)
ms = Motionscript("daemon", folder, "--device", ts.path, "--dry-run",
                  "--socket", os.path.join(livecheck.WORK, "first-frames.sock"))
ms.wait_open(ts.path)
pid = ms.proc.pid


def cpu_ns():
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def faults():
    """The daemon's page faults so far (minor + major, every thread): a cold path's first run
    faults its code and data in."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[7]) + int(fields[9])


def points():
    return sum(1 for l in ms.lines if l.get("name") == "p")


def frame(stage):
    """Writes one frame (stage: what changes it), waits for its line; (CPU µs, latency ms);
    its page faults are added to `faulted`."""
    before_lines = len(ms.lines)
    before_faults = faults()
    before = cpu_ns()
    start = time.monotonic()
    stage()
    ts.syn()
    deadline = start + 20
    while len(ms.lines) == before_lines and time.monotonic() < deadline:
        time.sleep(0.0005)
    latency = (time.monotonic() - start) * 1000
    time.sleep(0.02)
    cost = (cpu_ns() - before) / 1000
    faulted.append(faults() - before_faults)
    return cost, latency


faulted = []

swipes = []
for n in range(8):
    y = 300 + n * 60
    costs = [frame(lambda: ts.touch(0, 10 + n, 200, y))]
    for i in range(1, 21):
        costs.append(frame(lambda: ts.move(0, 200 + i * 20, y + i)))
    costs.append(frame(lambda: ts.lift(0)))
    swipes.append(costs)

ms.signal()
code = ms.finish()
fired = [l for l in ms.lines if l.get("name") == "swipe"]
steady = [c for s in swipes[4:] for c in s]


def row(label, costs):
    cpu = [c for c, _ in costs]
    lat = [l for _, l in costs]
    return (f"{label}: CPU median {statistics.median(cpu):.0f} µs, total {sum(cpu):.0f} µs per swipe; "
            f"latency median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms")


print(f"first frame: CPU {swipes[0][0][0]:.0f} µs, latency {swipes[0][0][1]:.2f} ms")
print(row("swipe 1", swipes[0]))
print(row("swipe 2", swipes[1]))
print("steady (swipes 5-8): CPU median "
      f"{statistics.median([c for c, _ in steady]):.0f} µs, total {sum(c for c, _ in steady) / 4:.0f} µs per swipe; "
      f"latency median {statistics.median([l for _, l in steady]):.2f} ms, max {max(l for _, l in steady):.2f} ms")
print("page faults: first frame", faulted[0], "; swipe 1", sum(faulted[:22]), "; swipes 5-8", sum(faulted[88:]), "; per swipe", [sum(faulted[i:i + 22]) for i in range(0, len(faulted), 22)])
print("per swipe, total CPU µs:", [round(sum(c for c, _ in s)) for s in swipes])
expect(code == 0, f"exit {code}: {ms.err()}")
expect(points() == 8 * 22, f"{points()} pointer lines of {8 * 22} frames: {ms.err()}")
expect(len(fired) == 8, f"{len(fired)} of 8 swipes fired: {fired}; stderr: {ms.err()}")
ts.close()
