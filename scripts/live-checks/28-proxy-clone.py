#!/usr/bin/python3
"""`--proxy` on live input (issue 31): the desktop reads a clone of the touchpad, without the
touches a recognizer with `consume = true` takes.

A uinput clickpad stands in for the real one, with a real identity: bcm5974's name, ids and
version (as in the bcm5974.evemu recording's header), made a modern multi-touch clickpad (5
slots, INPUT_PROP_POINTER and BUTTONPAD, resolution 40 units/mm, MSC_TIMESTAMP) and a phys.
`run --device PAD --proxy` with a script whose 3-finger swipe consumes. Checked:
- the clone exists, with phys `motionscript-clone/<the pad's phys>` and the pad's name, ids,
  properties, keys, axes (range, fuzz, flat, resolution) and MSC_TIMESTAMP (python-evdev);
- the pad is grabbed (another reader cannot grab it);
- `libinput debug-events` on the clone (tagged as udev would: /run/udev/data/c13:MINOR) sees a
  one-finger motion as POINTER_MOTION, and nothing of a 3-finger swipe, which the script
  recognizes;
- SIGKILL of motionscript with a finger down: the clone is gone and the pad can be grabbed again."""
import os
import signal
import subprocess
import threading
import time

from evdev import AbsInfo, InputDevice, UInput, ecodes as e, list_devices
from livecheck import Motionscript, expect, fail, script

PHYS = "usb-0000:00:14.0-5/input2"
NAME = "bcm5974"
RES = 40
axes = [
    (e.ABS_X, AbsInfo(0, -4824, 5342, 0, 0, RES)),
    (e.ABS_Y, AbsInfo(0, -172, 5820, 0, 0, RES)),
    (e.ABS_MT_SLOT, AbsInfo(0, 0, 4, 0, 0, 0)),
    (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
    (e.ABS_MT_POSITION_X, AbsInfo(0, -4824, 5342, 0, 0, RES)),
    (e.ABS_MT_POSITION_Y, AbsInfo(0, -172, 5820, 0, 0, RES)),
]
keys = [e.BTN_LEFT, e.BTN_TOOL_FINGER, e.BTN_TOUCH, e.BTN_TOOL_DOUBLETAP, e.BTN_TOOL_TRIPLETAP,
        e.BTN_TOOL_QUADTAP, e.BTN_TOOL_QUINTTAP]
pad = UInput({e.EV_KEY: keys, e.EV_ABS: axes, e.EV_MSC: [e.MSC_TIMESTAMP]}, name=NAME, vendor=0x05ac,
             product=0x0262, version=0x0110, bustype=e.BUS_USB, phys=PHYS,
             input_props=[e.INPUT_PROP_POINTER, e.INPUT_PROP_BUTTONPAD])
time.sleep(0.3)
real = InputDevice(pad.device.path)

stamp = 0
tools = {1: e.BTN_TOOL_FINGER, 2: e.BTN_TOOL_DOUBLETAP, 3: e.BTN_TOOL_TRIPLETAP}
state = {"fingers": 0, "slot": 0}


def frame(fingers):
    """fingers: {slot: (id or None, x, y)}; id -1 lifts. Sends one frame, as a clickpad would."""
    global stamp
    for slot, (tid, x, y) in sorted(fingers.items()):
        if slot != state["slot"]:
            pad.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
            state["slot"] = slot
        if tid is not None:
            pad.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, tid)
        if tid != -1:
            pad.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
            pad.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
    down = state["fingers"] + sum(1 for (tid, _, _) in fingers.values() if tid is not None and tid >= 0) \
        - sum(1 for (tid, _, _) in fingers.values() if tid == -1)
    if down != state["fingers"]:
        if state["fingers"] in tools:
            pad.write(e.EV_KEY, tools[state["fingers"]], 0)
        if down in tools:
            pad.write(e.EV_KEY, tools[down], 1)
        if (down > 0) != (state["fingers"] > 0):
            pad.write(e.EV_KEY, e.BTN_TOUCH, 1 if down else 0)
        state["fingers"] = down
    stamp += 8000
    pad.write(e.EV_MSC, e.MSC_TIMESTAMP, stamp)
    pad.syn()
    time.sleep(0.008)  # a touchpad's pace (125 Hz), not an ordering


SWIPE = ('motion.swipe{fingers = 3, consume = true}\n'
         '  :on("recognized", function(g) motion.emit("swipe3", g.direction) end)\n')
ms = Motionscript("run", script(SWIPE, "proxy-swipe.lua"), "--device", real.path, "--proxy")
ms.wait_open(real.path)
if not ms.wait_stderr("the desktop reads its clone", timeout=30):
    ms.signal(signal.SIGKILL)
    fail(f"no clone said: {ms.err()}")

clone = None
for path in list_devices():
    d = InputDevice(path)
    if d.phys.startswith("motionscript-clone/"):
        clone = d
        break
    d.close()
if clone is None:
    ms.signal(signal.SIGKILL)
    fail(f"no device with phys motionscript-clone/…: {ms.err()}")
print(f"clone {clone.path}: {clone.name!r} phys {clone.phys!r} {clone.info}")
expect(clone.phys == "motionscript-clone/" + PHYS, f"the clone's phys is {clone.phys!r}")
expect(clone.name == real.name, f"name {clone.name!r} != {real.name!r}")
expect(clone.info == real.info, f"ids {clone.info} != {real.info}")
expect(sorted(clone.input_props()) == sorted(real.input_props()), f"properties {clone.input_props()} != {real.input_props()}")


def capabilities(device):
    caps = device.capabilities(absinfo=True)
    out = {}
    for kind, codes in caps.items():
        # python-evdev's UInput declares force feedback (its uinput_setup asks for effects), which
        # no touchpad has and the clone leaves out on purpose (it would have to play them).
        if kind == e.EV_FF:
            continue
        if kind == e.EV_SYN:
            codes = [c for c in codes if c != e.EV_FF]
        if kind == e.EV_ABS:
            out[kind] = sorted((code, (i.min, i.max, i.fuzz, i.flat, i.resolution)) for code, i in codes)
        else:
            out[kind] = sorted(codes)
    return out


expect(capabilities(clone) == capabilities(real), f"capabilities {capabilities(clone)} != {capabilities(real)}")
expect(e.MSC_TIMESTAMP in capabilities(clone).get(e.EV_MSC, []), "no MSC_TIMESTAMP on the clone")

# The pad is the proxy's: nobody else can grab it.
probe = InputDevice(real.path)
try:
    probe.grab()
    probe.ungrab()
    fail("the pad could be grabbed: the proxy does not hold it")
except OSError:
    pass
probe.close()

# Tag the clone as udev would, so libinput takes it (no udevd in the VM).
run_udev = "/run/udev"
try:
    os.makedirs(run_udev + "/data", exist_ok=True)
except OSError:
    # The VM's root is read-only: a tmpfs on /run (nothing in the VM keeps anything there).
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", "/run"], check=True)
    os.makedirs(run_udev + "/data", exist_ok=True)
minor = os.minor(os.stat(clone.path).st_rdev)
with open(f"{run_udev}/data/c13:{minor}", "w") as f:
    f.write("I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHPAD=1\nG:seat\nQ:seat\n")

li = subprocess.Popen(["libinput", "debug-events", "--device", clone.path], stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT)
lines = []


def read():
    for raw in li.stdout:
        lines.append(raw.decode(errors="replace").rstrip())


threading.Thread(target=read, daemon=True).start()


def wait_for(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(predicate(l) for l in list(lines)):
            return True
        time.sleep(0.05)
    return False


if not wait_for(lambda l: "DEVICE_ADDED" in l):
    li.kill()
    ms.signal(signal.SIGKILL)
    fail(f"libinput did not add the clone: {lines}")

# One finger moving: pointer motion on the clone.
frame({0: (100, 0, 2000)})
for i in range(1, 31):
    frame({0: (None, 60 * i, 2000 + 20 * i)})
frame({0: (-1, 0, 0)})
if not wait_for(lambda l: "POINTER_MOTION" in l):
    li.kill()
    ms.signal(signal.SIGKILL)
    fail(f"no POINTER_MOTION from one finger on the clone: {lines}; motionscript: {ms.err()}")
time.sleep(1.0)
before = len(lines)

# A 3-finger swipe right: consumed, the desktop sees nothing of it.
frame({0: (201, -1500, 2500), 1: (202, -1000, 2500), 2: (203, -500, 2500)})
for i in range(1, 31):
    frame({0: (None, -1500 + 100 * i, 2500), 1: (None, -1000 + 100 * i, 2500), 2: (None, -500 + 100 * i, 2500)})
frame({0: (-1, 0, 0), 1: (-1, 0, 0), 2: (-1, 0, 0)})
got = ms.wait_lines(lambda l: l.get("name") == "swipe3", timeout=20)
time.sleep(1.5)
after = lines[before:]
print(f"libinput on the clone, during the swipe: {after}")
expect(got is not None and got.get("value") == "right", f"the script did not recognize the swipe: {ms.lines}; {ms.err()}")
expect(not any("GESTURE" in l or "POINTER" in l for l in after), f"the clone showed the consumed swipe: {after}")

# SIGKILL with a finger down: the clone goes with the process, the pad is free again.
frame({0: (300, 0, 2000)})
frame({0: (None, 50, 2000)})
clone_path = clone.path
clone.close()
ms.signal(signal.SIGKILL)
ms.finish()
deadline = time.monotonic() + 10
while time.monotonic() < deadline and any(InputDevice(p).phys.startswith("motionscript-clone/") for p in list_devices()):
    time.sleep(0.05)
expect(not any(InputDevice(p).phys.startswith("motionscript-clone/") for p in list_devices()), "the clone outlived SIGKILL")
probe = InputDevice(real.path)
try:
    probe.grab()
    probe.ungrab()
except OSError as error:
    fail(f"the pad cannot be grabbed after SIGKILL: {error}")
probe.close()
frame({0: (-1, 0, 0)})
li.kill()
li.wait()
print(f"ok: clone {clone_path} with the pad's identity; 1-finger motion reached it, the 3-finger swipe did not; SIGKILL freed the pad")
pad.close()
