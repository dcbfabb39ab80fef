"""docs/reference.md's pipe example on a real device: `cat /dev/input/eventN | motionscript run ... --device
/dev/stdin --axes ... --surface ...` maps the raw bytes onto the surface, and ends when the device
goes away (cat ends). Also `--device touchscreen` with no touchscreen yet waits for one."""
import os
import subprocess
import time
from livecheck import MOTIONSCRIPT, POINTERS, Motionscript, Touchscreen, expect, script

lua = script(POINTERS)
# A selector with nothing to match yet: the run waits, then reads the touchscreen plugged in.
waiting = Motionscript("run", lua, "--device", "touchscreen")
expect(waiting.wait_stderr("waiting for one to be plugged in"), f"no waiting message: {waiting.err()}")
time.sleep(0.5)
expect(waiting.proc.poll() is None, f"a selector run without devices ended: {waiting.err()}")
ts = Touchscreen(xmax=1919, ymax=1079)
waiting.wait_open(ts.path)
ts.touch(0, 2, 1919, 0); ts.syn(); time.sleep(0.05)
ts.lift(0); ts.syn(); time.sleep(0.3)
waiting.signal()
expect(waiting.finish() == 0, waiting.err())
expect([(p["id"], p["phase"]) for p in waiting.pointer_events()] == [(2, "down"), (2, "up")], f"{waiting.lines}")

ts.close()
ts = Touchscreen(xmax=1919, ymax=1079)  # fresh: a pipe cannot know values sent before it started
pipe = subprocess.Popen(["sh", "-c", f"cat {ts.path} | {MOTIONSCRIPT} run {lua} --device /dev/stdin --axes 0:1919,0:1079 --surface 960x540"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
def opened_by_someone(path):
    for pid in filter(lambda p: p.isdigit() and int(p) != os.getpid(), os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == path for fd in os.listdir(f"/proc/{pid}/fd")):
                return True
        except OSError:
            pass
    return False
deadline = time.monotonic() + 60
while not opened_by_someone(ts.path) and time.monotonic() < deadline:  # cat reading (bytes then wait in the pipe)
    time.sleep(0.05)
time.sleep(0.2)
ts.touch(0, 3, 1919, 1079); ts.syn(); time.sleep(0.05)
ts.move(0, 0, 0); ts.syn(); time.sleep(0.05)
ts.lift(0); ts.syn(); time.sleep(0.3)
ts.close()
out, err = pipe.communicate(timeout=60)
import json
events = [json.loads(l)["value"] for l in out.splitlines()]
print(events, err.decode())
expect(pipe.returncode == 0, f"exit {pipe.returncode}: {err.decode()}")
want = [("down", 960, 540), ("move", 0, 0), ("up", 0, 0)]
expect(len(events) == 3 and all(e["phase"] == w[0] and abs(e["x"] - w[1]) < 1e-9 and abs(e["y"] - w[2]) < 1e-9
                                for e, w in zip(events, want)), f"{events}")
