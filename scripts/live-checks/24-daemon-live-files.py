#!/usr/bin/python3
"""The daemon's per-file reloads on a real kernel (issue 19: "adding, editing and removing plugin
files loads, reloads and unloads just those plugins; a broken edit keeps the old version; a
finger held across a reload is not lost"). `daemon DIR --device TOUCHSCREEN` runs plugins a, b
(holds shift from its first touch) and c (requires lib/m); while it runs:

- adding d.lua: one `loaded` line, for d only; d acts on the next tap;
- editing a.lua: `reloaded` for a only; b, c and d get no lifecycle line and go on acting;
- editing lib/m.lua: only c (which requires it) reloads;
- a broken edit of a.lua: `failed` with the error, version 2 keeps acting;
- a finger down while a.lua is fixed: the new version gets it `down` where it is, then its move
  and lift; the old version saw the start;
- removing b.lua: `unloaded`, and shift (which b held) is up in the kernel's key state of
  motionscript's virtual keyboard, with exactly one press and one release on it.

Every step waits for its lifecycle line or for the tap's lines, never for a fixed time. Each tap
is at its own x, so a line tells which tap it belongs to.

Standalone (python3-evdev, root, /dev/uinput): exit 0 when it passes, 1 on the first failure, 77
when it cannot run here. MOTIONSCRIPT names the binary, LIVE_WORK a scratch folder."""
import os
import signal
import sys
import time

try:
    from evdev import ecodes as e
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402
from livecheck import expect  # noqa: E402

if not os.path.exists("/dev/uinput"):
    livecheck.skip("no /dev/uinput (modprobe uinput)")

began = time.monotonic()
folder = livecheck.watched_folder("daemon-live-files")
os.makedirs(folder + "/lib")


def save(name, text):
    """Writes a file as an editor saves it: a whole new file renamed over the old one."""
    path = os.path.join(folder, name)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.rename(path + ".tmp", path)


def phases(tag):
    """A plugin emitting `tag` with each pointer's phase and x."""
    return f'motion.pointers():map(function(p) return p.phase .. " " .. p.x end):emit("{tag}")\n'


save("a.lua", phases("a1"))
save("b.lua", 'local held = false\n'
              'motion.pointers():subscribe(function(p)\n'
              '  if p.phase == "down" and not held then held = true; motion.keyDown("leftshift") end\n'
              '  motion.emit("b", p.phase .. " " .. p.x)\n'
              'end)\n')
save("c.lua", 'local m = require "lib.m"\n'
              'motion.pointers():map(function(p) return m.word .. " " .. p.phase .. " " .. p.x end):emit("c")\n')
save("lib/m.lua", 'return {word = "one"}\n')

touch = livecheck.Touchscreen(name="motionscript-check daemon files")
ms = livecheck.Motionscript("daemon", folder, "--device", touch.path)
ms.wait_open(touch.path)
virtual = livecheck.find_device()  # opened at start-up, before any plugin acts
expect(virtual is not None, f"no input device named '{livecheck.VIRTUAL}': {ms.err()}")
shift = livecheck.key_values(virtual, e.KEY_LEFTSHIFT)


def lifecycle(since=0):
    return [(l["plugin"], l["status"], l["version"]) for l in ms.lines[since:] if "status" in l]


def wait_line(predicate, since, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in ms.lines[since:]:
            if predicate(line):
                return line
        if ms.proc.poll() is not None:
            break
        time.sleep(0.01)
    livecheck.fail(f"no {what} within {timeout} s; lines since: {ms.lines[since:]}; stderr: {ms.err()}")


def wait_status(plugin, status, since):
    return wait_line(lambda l: l.get("plugin") == plugin and l.get("status") == status, since, f"'{status}' line for {plugin}")


def values(tag, since=0):
    return [l["value"] for l in ms.lines[since:] if l.get("name") == tag]


def tap(x, plugins):
    """A tap at x; returns the index of its first line once every plugin in `plugins` wrote its up."""
    since = len(ms.lines)
    touch.touch(0, x, x, 500)
    touch.syn()
    touch.lift(0)
    touch.syn()
    for tag in plugins:
        wait_line(lambda l: l.get("name") == tag and str(l.get("value")).endswith(f"up {x}.0"), since, f"{tag}'s up at {x}")
    return since


wait_status("c", "loaded", 0)
expect(lifecycle() == [("a", "loaded", 1), ("b", "loaded", 1), ("c", "loaded", 1)], f"start-up: {lifecycle()}")

# Tap 1: every plugin acts; b holds shift from its touch on.
n = tap(100, ["a1", "b", "c"])
expect(values("a1", n) == ["down 100.0", "up 100.0"] and values("c", n) == ["one down 100.0", "one up 100.0"],
       f"tap 1: {ms.lines[n:]}")
expect(e.KEY_LEFTSHIFT in livecheck.keys_down(virtual), f"b's shift is not down in the kernel: {livecheck.keys_down(virtual, verbose=True)}")
print("ok: three plugins loaded and acting; b holds shift (kernel key state)")

# A new plugin file: loaded, alone; it acts on the next tap.
mark = len(ms.lines)
save("d.lua", phases("d"))
wait_status("d", "loaded", mark)
n = tap(200, ["a1", "b", "c", "d"])
expect(lifecycle(mark) == [("d", "loaded", 1)], f"adding d.lua: {lifecycle(mark)}")
expect(values("d", n) == ["down 200.0", "up 200.0"], f"d on its first tap: {values('d', n)}")
print("ok: a new file loads that plugin only, which acts on the next tap")

# An edited plugin: reloaded, alone; the others go on.
mark = len(ms.lines)
save("a.lua", phases("a2"))
wait_status("a", "reloaded", mark)
n = tap(300, ["a2", "b", "c", "d"])
expect(lifecycle(mark) == [("a", "reloaded", 2)], f"editing a.lua: {lifecycle(mark)}")
expect(values("a1", n) == [] and values("a2", n) == ["down 300.0", "up 300.0"], f"a after its edit: {ms.lines[n:]}")
expect(values("b", n) == ["down 300.0", "up 300.0"] and values("d", n) == ["down 300.0", "up 300.0"], f"b, d: {ms.lines[n:]}")
print("ok: an edited file reloads that plugin only; the others go on")

# An edited module: only the plugin that requires it reloads.
mark = len(ms.lines)
save("lib/m.lua", 'return {word = "two"}\n')
wait_status("c", "reloaded", mark)
n = tap(400, ["a2", "b", "c", "d"])
expect(lifecycle(mark) == [("c", "reloaded", 2)], f"editing lib/m.lua: {lifecycle(mark)}")
expect(values("c", n) == ["two down 400.0", "two up 400.0"], f"c after its module's edit: {values('c', n)}")
print("ok: an edited module reloads only the plugin that requires it")

# A broken edit: failed, with the error; version 2 keeps acting.
mark = len(ms.lines)
save("a.lua", "motion.pointers(:emit(\n")
failed = wait_status("a", "failed", mark)
n = tap(500, ["a2", "b", "c", "d"])
expect(lifecycle(mark) == [("a", "failed", 2)], f"the broken edit: {lifecycle(mark)}")
expect("a.lua:1:" in failed.get("error", ""), f"the failed line's error: {failed}")
expect(values("a2", n) == ["down 500.0", "up 500.0"], f"version 2 after the broken edit: {ms.lines[n:]}")
expect("the new version did not load; version 2 keeps running" in ms.err(), f"stderr: {ms.err()}")
print("ok: a broken edit says", repr(failed["error"]), "and version 2 keeps acting")

# A finger down across the fix: the new version gets it down where it is, then its move and lift.
mark = len(ms.lines)
touch.touch(0, 600, 600, 500)
touch.syn()
touch.move(0, 620, 500)
touch.syn()
wait_line(lambda l: l.get("name") == "a2" and l.get("value") == "move 620.0", mark, "a2's move to 620")
save("a.lua", phases("a3"))
reload_a = wait_status("a", "reloaded", mark)
touch.move(0, 640, 500)
touch.syn()
touch.lift(0)
touch.syn()
wait_line(lambda l: l.get("name") == "d" and l.get("value") == "up 640.0", mark, "d's up at 640")
expect(lifecycle(mark) == [("a", "reloaded", 3)], f"fixing a.lua: {lifecycle(mark)}")
expect(values("a2", mark) == ["down 600.0", "move 620.0"], f"version 2 saw {values('a2', mark)}")
expect(values("a3", mark) == ["down 620.0", "move 640.0", "up 640.0"], f"version 3 saw {values('a3', mark)}")
first_a3 = next(l for l in ms.lines[mark:] if l.get("name") == "a3")
expect(first_a3["t"] == reload_a["t"], f"the handed-over down is at the reload's time: {first_a3} vs {reload_a}")
expect(values("d", mark) == ["down 600.0", "move 620.0", "move 640.0", "up 640.0"], f"d across a's reload: {values('d', mark)}")
print("ok: a finger down across a reload goes on in the new version (down 620, move 640, up 640)")

# A removed plugin: unloaded, and the key it held goes up in the kernel.
expect(e.KEY_LEFTSHIFT in livecheck.keys_down(virtual), "shift is not down before b's removal")
mark = len(ms.lines)
os.remove(os.path.join(folder, "b.lua"))
wait_status("b", "unloaded", mark)
expect(e.KEY_LEFTSHIFT not in livecheck.keys_down(virtual), f"b's shift is still down after its unload: {livecheck.keys_down(virtual, verbose=True)}")
n = tap(700, ["a3", "c", "d"])
expect(lifecycle(mark) == [("b", "unloaded", 1)], f"removing b.lua: {lifecycle(mark)}")
expect(values("b", n) == [], f"b acted after its removal: {values('b', n)}")
deadline = time.monotonic() + 10
while len(shift) < 2 and time.monotonic() < deadline:
    time.sleep(0.01)
# A second witness: the check's own descriptor, never read until now and never asked for the
# key state (that would flush its queued key events), holds every key event the kernel sent.
# If the reader's list lacks an event this one has, the reader is wrong; if both lack the
# release while the key state says up, the release reached the key state but no client.
witness = []
try:
    witness = [(ev.type, ev.code, ev.value) for ev in virtual.read() if ev.type == e.EV_KEY or (ev.type == e.EV_SYN and ev.code == e.SYN_DROPPED)]
except BlockingIOError:
    pass
expect(shift == [1, 0], f"shift events on the virtual keyboard: {shift} (expected one press, one release); "
       f"a second descriptor's queue has {witness}; key state now {livecheck.keys_down(virtual, verbose=True)}")
print("ok: a removed file unloads its plugin; its shift went up (kernel key state; events [1, 0])")

ms.signal(signal.SIGINT)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
touch.close()
livecheck.release_folder(folder)
print(f"ok: {len(ms.lines)} lines, {len(lifecycle())} lifecycle lines, {time.monotonic() - began:.1f} s")
