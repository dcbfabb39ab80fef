"""`motionscript devices` lists a uinput touchscreen as a touchscreen, with its event node."""
import subprocess
from livecheck import MOTIONSCRIPT, Touchscreen, expect, fail

ts = Touchscreen(name="motionscript-test screen")
out = subprocess.run([MOTIONSCRIPT, "devices"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
text = out.stdout.decode()
print(text)
expect(out.returncode == 0, f"devices exited {out.returncode}: {out.stderr.decode()}")
rows = [l.split(None, 2) for l in text.splitlines()]
row = next((r for r in rows if len(r) == 3 and r[2] == "motionscript-test screen"), None)
if row is None:
    fail("the uinput touchscreen is not listed")
expect(row[0] == ts.path, f"node {row[0]}, expected {ts.path}")
expect(row[1] == "touchscreen", f"kind {row[1]}, expected touchscreen")
ts.close()
