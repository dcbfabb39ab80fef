"""`record` while a run reads the same device; the recording then replays to the same pointers at
the same times, naming the same device (p.device)."""
import os
import time
from livecheck import POINTERS, WORK, Motionscript, Touchscreen, expect, run, script

ts = Touchscreen()
lua = script(POINTERS)
recording = os.path.join(WORK, "live.evemu")
live = Motionscript("run", lua, "--device", ts.path)
rec = Motionscript("record", "--device", ts.path, "-o", recording)
live.wait_open(ts.path)
rec.wait_open(ts.path)
ts.touch(0, 30, 10, 20); ts.syn()
time.sleep(0.05)
ts.touch(1, 31, 700, 800); ts.syn()
for i in range(10):
    time.sleep(0.02)
    ts.move(0, 10 + 7 * i, 20 + i); ts.move(1, 700 - 5 * i, 800); ts.syn()
time.sleep(0.05)
ts.lift(1); ts.syn()
time.sleep(0.05)
ts.lift(0); ts.syn()
time.sleep(0.5)
live.signal(); rec.signal()
expect(live.finish() == 0, f"run: {live.err()}")
expect(rec.finish() == 0, f"record: {rec.err()}")
code, lines, _, err = run("run", lua, "--events", recording)
expect(code == 0, f"replay exit {code}: {err}")
replayed = [dict(l["value"], t=l["t"]) for l in lines if l.get("name") == "p"]
seen = live.pointer_events()
print(len(seen), "live,", len(replayed), "replayed")
expect(len(seen) == 22, f"{len(seen)} live pointer events, expected 22 (2 downs, 9 frames of 2 moves, 2 ups)")
expect(len(replayed) == len(seen), f"{len(replayed)} replayed vs {len(seen)} live")
for a, b in zip(seen, replayed):
    expect((a["id"], a["phase"], a["x"], a["y"]) == (b["id"], b["phase"], b["x"], b["y"]), f"live {a} vs replay {b}")
    expect(abs(a["t"] - b["t"]) < 1e-6, f"live t {a['t']} vs replay t {b['t']}")
    # The recording keeps its device: the replay names it as the live run did.
    expect(a.get("device") == b.get("device") and a.get("device", {}).get("kind") == "touchscreen",
           f"live device {a.get('device')} vs replay {b.get('device')}")
ts.close()
