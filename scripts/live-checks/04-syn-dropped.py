"""SYN_DROPPED on a real kernel: the reader is stopped (SIGSTOP) while two fingers write far more
events than the client buffer holds, then resumed. Afterwards no pointer ever jumps back or takes
the other slot's values, and stderr says events were dropped."""
import os
import signal
import time
from livecheck import POINTERS, Motionscript, Touchscreen, expect, phases, script

ts = Touchscreen()
ms = Motionscript("run", script(POINTERS), "--device", ts.path)
ms.wait_open(ts.path)
# Slot 0 (id 200) moves right from x 1000 on y 100; slot 1 (id 201) from x 0 on y 900.
ts.touch(0, 200, 1000, 100); ts.touch(1, 201, 0, 900); ts.syn()
time.sleep(0.2)
step = 0
def frame():
    global step
    step += 1
    ts.move(0, 1000 + step, 100); ts.move(1, step, 900); ts.syn()
for _ in range(20):
    frame()
    time.sleep(0.005)
os.kill(ms.proc.pid, signal.SIGSTOP)
time.sleep(0.2)
for _ in range(880):  # about 6 events a frame: ~5,000 events into a buffer of a few hundred
    frame()
time.sleep(0.2)
os.kill(ms.proc.pid, signal.SIGCONT)
time.sleep(1.0)
for _ in range(5):
    frame()
    time.sleep(0.01)
ts.lift(0); ts.lift(1); ts.syn()
time.sleep(0.5)
ms.signal()
code = ms.finish()
events = ms.pointer_events()
print(f"{len(events)} pointer events; stderr: {ms.err()}")
expect(code == 0, f"exit {code}: {ms.err()}")
ids = sorted({p["id"] for p in events})
expect(ids == [200, 201], f"pointer ids {ids}")
for pid, y, low, high in [(200, 100, 1000, 1920), (201, 900, 0, 1000)]:
    mine = [p for p in events if p["id"] == pid]
    expect(phases(mine)[0] == (pid, "down") and phases(mine)[-1] == (pid, "up"), f"{pid}: {phases(mine)[:2]}...{phases(mine)[-2:]}")
    expect(all(p["phase"] != "down" for p in mine[1:]), f"{pid} went down twice")
    for p in mine:
        expect(p["y"] == y and low <= p["x"] < high, f"pointer {pid} took another slot's values: {p}")
    xs = [p["x"] for p in mine]
    back = [(a, b) for a, b in zip(xs, xs[1:]) if b < a]
    expect(not back, f"pointer {pid} jumped back: {back[:5]}")
last = {p["id"]: p["x"] for p in events if p["phase"] == "up"}
expect(last == {200: 1000 + step, 201: step}, f"lifted at {last}, expected {1000 + step} and {step}")
expect("dropped" in ms.err(), "stderr does not say that events were dropped")
ts.close()
