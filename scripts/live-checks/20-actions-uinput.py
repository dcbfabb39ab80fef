#!/usr/bin/python3
"""Actions on a real kernel: a script's keys and mouse actions come out of motionscript's uinput
device ("motionscript virtual input") exactly as scripted, read back with python3-evdev; keys and
buttons the script holds are released when its input ends, on a --watch reload, when a callback
fails, and on Ctrl-C.

Standalone (python3-evdev, run as root where /dev/uinput exists): exit 0 when every part passes,
1 on the first failure (it says what differed), 77 when it cannot run here. MOTIONSCRIPT names
the binary (default: motionscript in PATH), LIVE_WORK a scratch folder (default /tmp)."""
import os
import signal
import sys
import threading
import time

try:
    from evdev import AbsInfo, InputDevice, UInput, ecodes as e, list_devices
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402  (after the evdev check: it needs evdev too)

MOTIONSCRIPT = os.environ.get("MOTIONSCRIPT", "motionscript")
WORK = os.environ.get("LIVE_WORK", "/tmp")
VIRTUAL = "motionscript virtual input"


def fail(message):
    print("FAIL:", message)
    sys.stdout.flush()
    os._exit(1)  # background readers must not keep the check alive


def expect(condition, message):
    if not condition:
        fail(message)


if not os.path.exists("/dev/uinput"):
    print("SKIP: no /dev/uinput (modprobe uinput)")
    sys.exit(77)


class Touchscreen:
    """A multi-touch protocol B touchscreen made with uinput: the input motionscript reads."""

    def __init__(self):
        axes = [
            (e.ABS_X, AbsInfo(0, 0, 1919, 0, 0, 0)),
            (e.ABS_Y, AbsInfo(0, 0, 1079, 0, 0, 0)),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, AbsInfo(0, 0, 1919, 0, 0, 0)),
            (e.ABS_MT_POSITION_Y, AbsInfo(0, 0, 1079, 0, 0, 0)),
        ]
        self.ui = UInput({e.EV_KEY: [e.BTN_TOUCH], e.EV_ABS: axes}, name="motionscript-check touchscreen",
                         input_props=[e.INPUT_PROP_DIRECT])
        self.path = self.ui.device.path
        self.tracking = 100
        time.sleep(0.2)

    def tap(self, x=500, y=500):
        """One finger down (a frame), then up (a frame)."""
        self.tracking += 1
        self.ui.write(e.EV_ABS, e.ABS_MT_SLOT, 0)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, self.tracking)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1)
        self.ui.write(e.EV_ABS, e.ABS_X, x)
        self.ui.write(e.EV_ABS, e.ABS_Y, y)
        self.ui.syn()
        time.sleep(0.05)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
        self.ui.write(e.EV_KEY, e.BTN_TOUCH, 0)
        self.ui.syn()
        time.sleep(0.05)

    def close(self):
        self.ui.close()


class Motionscript(livecheck.Motionscript):
    """`motionscript run SCRIPT --device TOUCHSCREEN [extra]` in the background, once it reads
    the device."""

    def __init__(self, script, device, *extra):
        super().__init__("run", script, "--device", device, *extra)
        self.wait_open(device)

    def running(self):
        return self.proc.poll() is None

    def actions(self):
        return [line for line in self.lines if "action" in line]


# Names as the checks write them (python-evdev maps some codes to several names).
KEY_NAMES = {getattr(e, n): n for n in ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_RIGHT", "KEY_LEFTSHIFT", "KEY_LEFTMETA",
                                        "KEY_RIGHTCTRL", "BTN_LEFT", "BTN_RIGHT"]}
REL_NAMES = {0x00: "REL_X", 0x01: "REL_Y", 0x06: "REL_HWHEEL", 0x08: "REL_WHEEL", 0x0b: "REL_WHEEL_HI_RES",
             0x0c: "REL_HWHEEL_HI_RES"}  # the kernel's numbers (older python-evdev lacks the HI_RES names)


class VirtualDevice:
    """motionscript's uinput device, found by name once it exists; its key, relative and
    SYN_REPORT events are collected by a thread as they come, as readable names."""

    def __init__(self, timeout=20):
        deadline = time.monotonic() + timeout
        self.device = None
        while self.device is None and time.monotonic() < deadline:
            for path in list_devices():
                try:
                    candidate = InputDevice(path)
                except OSError:
                    continue
                if candidate.name == VIRTUAL:
                    self.device = candidate
                    break
                candidate.close()
            time.sleep(0.05)
        expect(self.device is not None, f"no input device named '{VIRTUAL}' appeared within {timeout} s")
        self.events = []
        self.gone = False
        threading.Thread(target=self._read, daemon=True).start()
        # The step that created the device writes a 1-unit move once it exists (after a pause
        # for the desktop to open it): let it pass, and start from nothing.
        time.sleep(0.5)
        self.events.clear()

    def _read(self):
        try:
            for event in self.device.read_loop():
                if event.type == e.EV_KEY:
                    self.events.append(f"{KEY_NAMES.get(event.code, event.code)} {event.value}")
                elif event.type == e.EV_REL:
                    self.events.append(f"{REL_NAMES.get(event.code, event.code)} {event.value}")
                elif event.type == e.EV_SYN and event.code == e.SYN_REPORT:
                    self.events.append("SYN")
        except OSError:
            self.gone = True  # the device went away with motionscript

    def wait_for(self, count, timeout=10):
        """Waits until `count` events arrived (a hang guard, not a timing check); returns them."""
        deadline = time.monotonic() + timeout
        while len(self.events) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.events)

    def held(self):
        """Key and button codes the kernel has down on the device now (asked on a descriptor
        of its own: asking on the reader's would flush key events it has not read yet)."""
        return set(livecheck.keys_down(self.device))


def script(text, name):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# The n-th touch does the n-th step; the first creates the virtual device (a 1-unit move), so
# the check can open it before the actions it reads back.
STEPS = """
local steps = {%s}
local n = 0
motion.pointers():filter(function(p) return p.phase == "down" end):subscribe(function()
  n = n + 1
  if steps[n] then steps[n]() end
end)
"""
CREATE = 'function() motion.mouse.move(1, 0) end'

# Part 1: what each action writes, and Ctrl-C releasing what is held.
touch = Touchscreen()
lua = script(STEPS % (CREATE + """, function()
    motion.keys("ctrl+alt+Right")
    motion.mouse.move(5, -3)
    motion.mouse.scroll(0, 1)
    motion.mouse.button("left", "click")
    motion.keyDown("alt")
    motion.mouse.button("right", "down")
  end"""), "actions-keys.lua")
ms = Motionscript(lua, touch.path)
touch.tap()
virtual = VirtualDevice()
touch.tap()
expected = [
    "KEY_LEFTCTRL 1", "KEY_LEFTALT 1", "KEY_RIGHT 1", "SYN", "KEY_RIGHT 0", "KEY_LEFTALT 0", "KEY_LEFTCTRL 0", "SYN",
    "REL_X 5", "REL_Y -3", "SYN",
    "REL_WHEEL -1", "REL_WHEEL_HI_RES -120", "SYN",
    "BTN_LEFT 1", "SYN", "BTN_LEFT 0", "SYN",
    "KEY_LEFTALT 1", "SYN", "BTN_RIGHT 1", "SYN",
]
got = virtual.wait_for(len(expected))
expect(got == expected, f"the actions wrote {got}, expected {expected}")
held = virtual.held()
expect(held == {e.KEY_LEFTALT, e.BTN_RIGHT}, f"held while the script runs: {held}")
ms.proc.send_signal(signal.SIGINT)
got = virtual.wait_for(len(expected) + 3)
expect(got[len(expected):] == ["BTN_RIGHT 0", "KEY_LEFTALT 0", "SYN"], f"after Ctrl-C: {got[len(expected):]}")
code = ms.finish()
expect(code == 0, f"exit {code} after Ctrl-C: {ms.err()}")
autos = [a for a in ms.actions() if a.get("auto")]
expect([a.get("key") or a.get("button") for a in autos] == ["right", "alt"], f"release lines {autos}")
touch.close()
print("ok: keys, chord, move, scroll, click and held keys through uinput; Ctrl-C released alt and the right button")

# Part 2: a --watch reload releases what the old version held.
touch = Touchscreen()
lua = script(STEPS % (CREATE + ', function() motion.keyDown("leftshift") end'), "actions-reload.lua")
ms = Motionscript(lua, touch.path, "--watch")
touch.tap()
virtual = VirtualDevice()
touch.tap()
got = virtual.wait_for(2)
expect(got == ["KEY_LEFTSHIFT 1", "SYN"], f"keyDown wrote {got}")
script(STEPS % CREATE + "-- a new version\n", "actions-reload.lua")
got = virtual.wait_for(4, timeout=20)
expect(got[2:] == ["KEY_LEFTSHIFT 0", "SYN"], f"after the reload: {got}")
expect(ms.running(), "motionscript ended at the reload")
expect(e.KEY_LEFTSHIFT not in virtual.held(), "shift still held after the reload")
ms.proc.send_signal(signal.SIGINT)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
touch.close()
print("ok: a reload released the old version's shift")

# Part 3: a callback that fails releases what the script held.
touch = Touchscreen()
lua = script(STEPS % (CREATE + ', function() motion.keyDown("super") end, function() error("boom") end'),
             "actions-error.lua")
ms = Motionscript(lua, touch.path)
touch.tap()
virtual = VirtualDevice()
touch.tap()
expect(virtual.wait_for(2) == ["KEY_LEFTMETA 1", "SYN"], f"keyDown wrote {virtual.events}")
touch.tap()
got = virtual.wait_for(4)
expect(got[2:] == ["KEY_LEFTMETA 0", "SYN"], f"after the error: {got}")
if ms.running():
    ms.proc.send_signal(signal.SIGINT)
code = ms.finish()
expect(code == 1, f"exit {code} after a script error: {ms.err()}")
expect("boom" in ms.err(), f"the error is reported: {ms.err()}")
touch.close()
print("ok: a failing callback released super")

# Part 4: the end of input (the device goes away) releases what the script held.
touch = Touchscreen()
lua = script(STEPS % (CREATE + ', function() motion.keyDown("rightctrl") end'), "actions-end.lua")
ms = Motionscript(lua, touch.path)
touch.tap()
virtual = VirtualDevice()
touch.tap()
expect(virtual.wait_for(2) == ["KEY_RIGHTCTRL 1", "SYN"], f"keyDown wrote {virtual.events}")
touch.close()  # unplugged: the live run ends
code = ms.finish()
got = virtual.wait_for(4, timeout=5)
expect(got[2:] == ["KEY_RIGHTCTRL 0", "SYN"], f"at the end of input: {got}")
expect(code == 0, f"exit {code} when the device went away: {ms.err()}")
print("ok: the end of input released rightctrl")
