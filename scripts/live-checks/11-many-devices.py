"""Several devices: a touchscreen by path plus the selector `touchpad`, with a second touchpad
plugged in while running (hotplug). Pointer ids stay unique (all three use tracking id 5), each
pointer event names its device, a recognizer with devices="touchpad" ignores the touchscreen, an
unplugged touchpad cancels only its own pointer, and `devices --json` lists them."""
import json
import subprocess
import time
from livecheck import MOTIONSCRIPT, Motionscript, Touchscreen, expect, script

screen = Touchscreen(name="motionscript-test screen")
pad = Touchscreen(name="motionscript-test pad", direct=False)
out = subprocess.run([MOTIONSCRIPT, "devices", "--json"], stdout=subprocess.PIPE, timeout=120).stdout.decode()
listed = {d["name"]: d for d in map(json.loads, out.splitlines())}
expect(listed.get("motionscript-test screen", {}).get("kind") == "touchscreen", f"devices --json: {out}")
expect(listed.get("motionscript-test pad", {}).get("kind") == "touchpad" and listed["motionscript-test pad"]["node"] == pad.path, f"devices --json: {out}")

lua = script("""
motion.pointers():map(function(p) return {id = p.id, phase = p.phase, name = p.device.name, kind = p.device.kind} end):emit("p")
motion.tapSource(motion.tap{devices = "touchpad"}):filter(function(v) return type(v) == "table" end):emit("padtap")
""")
ms = Motionscript("run", lua, "--device", screen.path, "--device", "touchpad")
ms.wait_open(screen.path)
ms.wait_open(pad.path)
screen.touch(0, 5, 100, 100); screen.syn(); time.sleep(0.05)
pad.touch(0, 5, 200, 200); pad.syn()
# Read before the unplug: the kernel drops a removed device's unread events (evdev's read then
# says ENODEV), which a loaded CI VM took 50 ms to reach once.
ms.wait_lines(lambda l: l.get("name") == "p" and l["value"]["name"] == "motionscript-test pad", timeout=30)
pad.close()                                          # unplugged with its finger down
time.sleep(0.5)
late = Touchscreen(name="motionscript-test pad 2", direct=False)  # plugged in while running
ms.wait_open(late.path)
late.touch(0, 5, 300, 300); late.syn(); time.sleep(0.05)
late.lift(0); late.syn(); time.sleep(0.05)          # a tap on a touchpad (the screen finger is ignored)
screen.lift(0); screen.syn(); time.sleep(0.05)
screen.touch(0, 6, 110, 110); screen.syn(); time.sleep(0.05)
screen.lift(0); screen.syn(); time.sleep(0.5)        # a tap on the touchscreen: not for padtap
ms.signal()
code = ms.finish()
lines = [l for l in ms.lines if l.get("name") == "p"]
print(lines, ms.err())
expect(code == 0, f"exit {code}: {ms.err()}")
seen = [(l["value"]["name"].replace("motionscript-test ", ""), l["value"]["phase"], l["value"]["id"]) for l in lines]
expect(seen[:2] == [("screen", "down", 5), ("pad", "down", 1000000)], f"first downs {seen[:2]}")
expect(seen[2] == ("pad", "cancel", 1000000), f"the unplugged pad's pointer is cancelled: {seen}")
expect(seen[3][0] == "pad 2" and seen[3][1] == "down" and seen[3][2] != 5, f"hotplugged, its id unique while the screen's 5 is down: {seen[3]}")
expect(("screen", "down", 6) in seen and seen[-1] == ("screen", "up", 6), f"the screen goes on: {seen}")
kinds = {l["value"]["name"]: l["value"]["kind"] for l in lines}
expect(kinds == {"motionscript-test screen": "touchscreen", "motionscript-test pad": "touchpad", "motionscript-test pad 2": "touchpad"}, f"kinds {kinds}")
taps = [l for l in ms.lines if l.get("name") == "padtap" and "value" in l]
expect(len(taps) == 1 and taps[0]["value"] == {"x": 300, "y": 300}, f"padtap {taps}")
screen.close(); late.close()
