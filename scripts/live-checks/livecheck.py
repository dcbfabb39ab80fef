"""Shared helpers for the live checks: uinput devices driven by python3-evdev, and motionscript
processes whose JSON Lines output the checks inspect."""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

from evdev import AbsInfo, InputDevice, UInput, ecodes as e, list_devices

MOTIONSCRIPT = os.environ.get("MOTIONSCRIPT", "motionscript")
WORK = os.environ.get("LIVE_WORK", "/tmp")


def fail(message):
    print("FAIL:", message)
    sys.stdout.flush()
    sys.exit(1)


def skip(message):
    print("SKIP:", message)
    sys.exit(77)


def expect(condition, message):
    if not condition:
        fail(message)


class Touchscreen:
    """A multi-touch protocol B uinput device (INPUT_PROP_DIRECT unless `direct` is False, then a
    touchpad: INPUT_PROP_POINTER). Stage changes with touch/move/lift, send them with `syn()`."""

    def __init__(self, name="motionscript-test touchscreen", slots=10, xmax=1919, ymax=1079, resolution=0, direct=True):
        axes = [
            (e.ABS_X, AbsInfo(0, 0, xmax, 0, 0, resolution)),
            (e.ABS_Y, AbsInfo(0, 0, ymax, 0, 0, resolution)),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, slots - 1, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, AbsInfo(0, 0, xmax, 0, 0, resolution)),
            (e.ABS_MT_POSITION_Y, AbsInfo(0, 0, ymax, 0, 0, resolution)),
        ]
        keys = [e.BTN_TOUCH] if direct else [e.BTN_TOUCH, e.BTN_TOOL_FINGER, e.BTN_TOOL_DOUBLETAP, e.BTN_LEFT]
        props = [e.INPUT_PROP_DIRECT] if direct else [e.INPUT_PROP_POINTER]
        self.name = name
        self.ui = UInput({e.EV_KEY: keys, e.EV_ABS: axes}, name=name, input_props=props)
        self.path = self.ui.device.path
        self.slot = 0
        self.down = {}
        self.touching = False
        time.sleep(0.2)  # let udev-less devtmpfs settle the node

    def _select(self, slot):
        if slot != self.slot:
            self.ui.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
            self.slot = slot

    def touch(self, slot, tracking_id, x, y):
        self._select(slot)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, tracking_id)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        self.down[slot] = (x, y)

    def move(self, slot, x, y):
        self._select(slot)
        if x != self.down[slot][0]:
            self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
        if y != self.down[slot][1]:
            self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        self.down[slot] = (x, y)

    def lift(self, slot):
        self._select(slot)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
        del self.down[slot]

    def syn(self):
        touching = bool(self.down)
        if touching != self.touching:
            self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1 if touching else 0)
            self.touching = touching
        if self.down:
            x, y = self.down[min(self.down)]
            self.ui.write(e.EV_ABS, e.ABS_X, x)
            self.ui.write(e.EV_ABS, e.ABS_Y, y)
        self.ui.syn()

    def close(self):
        self.ui.close()


def script(text, name="check.lua"):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


POINTERS = 'motion.pointers():emit("p")\n'


def watched_folder(name):
    """An empty folder WORK/name whose changes inotify reports. In the test VM, WORK is a 9p
    mount, and inotify says nothing about a folder made in it (only about the mount's top
    folder), so a tmpfs is mounted there (when we may: as root; elsewhere the folder is plain).
    `release_folder` unmounts it."""
    path = os.path.join(WORK, name)
    release_folder(path)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    if os.geteuid() == 0:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", path], stderr=subprocess.DEVNULL)
    return path


def release_folder(path):
    if os.path.ismount(path):
        subprocess.run(["umount", path])

VIRTUAL = "motionscript virtual input"


def find_device(name=VIRTUAL, timeout=20):
    """The input device called `name` once it exists (motionscript's uinput device by default),
    or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in list_devices():
            try:
                candidate = InputDevice(path)
            except OSError:
                continue
            if candidate.name == name:
                return candidate
            candidate.close()
        time.sleep(0.05)
    return None


def key_values(device, code, start=None):
    """A list that a reader thread fills with the values of key `code` on `device` as the
    kernel reports them (1 press, 0 release), in order, until the device goes away.

    The thread reads through a descriptor of its own, opened here: asking the kernel for the key
    state (EVIOCGKEY: `active_keys()`) flushes the key events still queued for the descriptor it
    is asked on (evdev's __evdev_flush_queue), so a check asking on the reader's descriptor took
    presses and releases from under a reader that had not read them yet (under load: a press
    seen, its release never, while the key state said up). `start`: an Event the thread waits
    for before its first read (for the check of this reader)."""
    values = []
    own = InputDevice(device.path)  # opened now: every event from here on is queued for it

    def read():
        if start is not None:
            start.wait()
        try:
            for event in own.read_loop():
                if event.type == e.EV_KEY and event.code == code:
                    values.append(event.value)
                elif event.type == e.EV_SYN and event.code == e.SYN_DROPPED:
                    # The kernel dropped events for this reader: say so in the list.
                    values.append("SYN_DROPPED")
        except OSError as error:
            if error.errno != 19:  # ENODEV: the device went away at the end
                values.append(f"reader ended: {error!r}")
        except Exception as error:  # a reader that ends says so, whatever ended it
            values.append(f"reader ended: {error!r}")

    threading.Thread(target=read, daemon=True).start()
    return values


def keys_down(device, verbose=False):
    """The keys and buttons the kernel has down on `device` now, asked through a descriptor
    opened for the question (see `key_values`: asking flushes that descriptor's queued key
    events, which must not be a reader's)."""
    probe = InputDevice(device.path)
    try:
        return probe.active_keys(verbose=verbose)
    finally:
        probe.close()


class Motionscript:
    """`motionscript ARGS...` in the background; stdout lines are collected as they come."""

    def __init__(self, *args):
        self.args = [MOTIONSCRIPT, *args]
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = []
        self.stderr = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err = threading.Thread(target=self._read_err, daemon=True)
        self._err.start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                self.lines.append(json.loads(raw))
            except ValueError:
                self.lines.append({"not json": raw.decode(errors="replace")})

    def _read_err(self):
        for raw in self.proc.stderr:
            self.stderr += raw

    def wait_stderr(self, text, timeout=60):
        """Waits until stderr contains `text`; False on timeout or when the process ended first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.err():
                return True
            if self.proc.poll() is not None:
                self._err.join(5)
                return text in self.err()
            time.sleep(0.05)
        return False

    def wait_open(self, path, timeout=120):
        """Waits until the process has `path` open (it then reads it), plus a moment for the grab
        and the script's setup."""
        target = os.path.realpath(path)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.finish()
                fail(f"motionscript ended before opening {path}: exit {self.proc.returncode}: {self.err()}")
            try:
                for fd in os.listdir(f"/proc/{self.proc.pid}/fd"):
                    try:
                        if os.readlink(f"/proc/{self.proc.pid}/fd/{fd}") == target:
                            time.sleep(1.0)
                            return
                    except OSError:
                        pass
            except OSError:
                pass
            time.sleep(0.05)
        fail(f"motionscript did not open {path} within {timeout} s")

    def wait_lines(self, predicate, timeout=60):
        """Waits until some output line satisfies `predicate`; returns it (None on timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if predicate(line):
                    return line
            if self.proc.poll() is not None:
                self._reader.join(5)
                return next((l for l in self.lines if predicate(l)), None)
            time.sleep(0.02)
        return None

    def signal(self, sig=signal.SIGINT):
        self.proc.send_signal(sig)

    def finish(self, timeout=60):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            fail(f"motionscript did not end within {timeout} s: {' '.join(self.args)}")
        self._reader.join(10)
        self._err.join(10)
        return self.proc.returncode

    def err(self):
        return self.stderr.decode(errors="replace").strip()

    def pointer_events(self, name="p"):
        return [dict(l["value"], t=l["t"]) for l in self.lines if l.get("name") == name and "value" in l]


def run(*args, timeout=120):
    proc = subprocess.run([MOTIONSCRIPT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith(b"{")]
    return proc.returncode, lines, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")


def phases(events):
    return [(p["id"], p["phase"]) for p in events]


class Clickpad:
    """A multi-touch clickpad with a real identity: bcm5974's name, ids and version (as in the
    bcm5974.evemu recording's header), made a modern one (5 slots, INPUT_PROP_POINTER and
    BUTTONPAD, 40 units/mm, MSC_TIMESTAMP) with a phys. `frame({slot: (tracking id or None,
    x, y)})` sends one frame (id -1 lifts), with BTN_TOUCH and BTN_TOOL_* as a clickpad does,
    at a touchpad's pace (8 ms a frame)."""
    PHYS = "usb-0000:00:14.0-5/input2"
    NAME = "bcm5974"

    def __init__(self):
        res = 40
        axes = [
            (e.ABS_X, AbsInfo(0, -4824, 5342, 0, 0, res)),
            (e.ABS_Y, AbsInfo(0, -172, 5820, 0, 0, res)),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, 4, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, AbsInfo(0, -4824, 5342, 0, 0, res)),
            (e.ABS_MT_POSITION_Y, AbsInfo(0, -172, 5820, 0, 0, res)),
        ]
        keys = [e.BTN_LEFT, e.BTN_TOOL_FINGER, e.BTN_TOUCH, e.BTN_TOOL_DOUBLETAP, e.BTN_TOOL_TRIPLETAP,
                e.BTN_TOOL_QUADTAP, e.BTN_TOOL_QUINTTAP]
        self.ui = UInput({e.EV_KEY: keys, e.EV_ABS: axes, e.EV_MSC: [e.MSC_TIMESTAMP]}, name=self.NAME, vendor=0x05ac,
                         product=0x0262, version=0x0110, bustype=e.BUS_USB, phys=self.PHYS,
                         input_props=[e.INPUT_PROP_POINTER, e.INPUT_PROP_BUTTONPAD])
        self.path = self.ui.device.path
        self.fingers = 0
        self.slot = 0
        self.stamp = 0
        time.sleep(0.3)

    TOOLS = {1: e.BTN_TOOL_FINGER, 2: e.BTN_TOOL_DOUBLETAP, 3: e.BTN_TOOL_TRIPLETAP, 4: e.BTN_TOOL_QUADTAP,
             5: e.BTN_TOOL_QUINTTAP}

    def frame(self, fingers):
        for slot, (tid, x, y) in sorted(fingers.items()):
            if slot != self.slot:
                self.ui.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
                self.slot = slot
            if tid is not None:
                self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, tid)
            if tid != -1:
                self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
                self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        down = self.fingers + sum(1 for (tid, _, _) in fingers.values() if tid is not None and tid >= 0) \
            - sum(1 for (tid, _, _) in fingers.values() if tid == -1)
        if down != self.fingers:
            if self.fingers in self.TOOLS:
                self.ui.write(e.EV_KEY, self.TOOLS[self.fingers], 0)
            if down in self.TOOLS:
                self.ui.write(e.EV_KEY, self.TOOLS[down], 1)
            if (down > 0) != (self.fingers > 0):
                self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1 if down else 0)
            self.fingers = down
        self.stamp += 8000
        self.ui.write(e.EV_MSC, e.MSC_TIMESTAMP, self.stamp)
        self.ui.syn()
        time.sleep(0.008)  # a touchpad's pace (125 Hz), not an ordering

    def swipe3(self, first_id=200, dx=100, frames=30):
        """Three fingers down, moving right `dx` a frame, lifted."""
        self.frame({0: (first_id, -1500, 2500), 1: (first_id + 1, -1000, 2500), 2: (first_id + 2, -500, 2500)})
        for i in range(1, frames + 1):
            self.frame({0: (None, -1500 + dx * i, 2500), 1: (None, -1000 + dx * i, 2500), 2: (None, -500 + dx * i, 2500)})
        self.frame({0: (-1, 0, 0), 1: (-1, 0, 0), 2: (-1, 0, 0)})

    def close(self):
        self.ui.close()


def clones():
    """The paths of the devices whose phys marks them as `--proxy` clones."""
    out = []
    for path in list_devices():
        try:
            d = InputDevice(path)
        except OSError:
            continue
        if d.phys.startswith("motionscript-clone/"):
            out.append(path)
        d.close()
    return out


def wait_until(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
