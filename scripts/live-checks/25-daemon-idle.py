#!/usr/bin/python3
"""An idle daemon wakes 0 times on a real kernel (issue 19: "0 wake-ups per second when there is
no input and nothing is scheduled"). `daemon DIR` with its default devices (touchpad,
touchscreen) and two plugins (one emits each pointer, one has a tap and a hold, which schedule
their decisions):

- waiting for a device (none plugged in): no thread of the daemon switches in 5 s;
- a touchscreen plugged in and opened: none in 5 s;
- after a tap, once its decisions ran and the daemon waits with no timeout: none in 5 s.

Wake-ups are counted as the kernel counts them (every thread's voluntary and involuntary
context switches, /proc/PID/task/*/status), from when the main thread waits (epoll) with no
timeout (its /proc/PID/syscall: nothing scheduled); a thread asleep accrues none whatever the
load, so the count is exact, not a rate.

Standalone (python3-evdev, root, /dev/uinput): exit 0 when it passes, 1 on the first failure, 77
when it cannot run here. MOTIONSCRIPT names the binary, LIVE_WORK a scratch folder."""
import glob
import os
import platform
import signal
import sys
import time

try:
    from evdev import ecodes as e  # noqa: F401
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402
from livecheck import expect  # noqa: E402

if not os.path.exists("/dev/uinput"):
    livecheck.skip("no /dev/uinput (modprobe uinput)")
if platform.machine() != "x86_64":
    livecheck.skip("reads x86-64 system call numbers from /proc/PID/syscall")

WINDOW = 5
folder = livecheck.watched_folder("daemon-idle")
with open(os.path.join(folder, "echo.lua"), "w") as f:
    f.write(livecheck.POINTERS)
with open(os.path.join(folder, "taps.lua"), "w") as f:
    f.write('motion.gesture(motion.tap{taps = 2}):emit("tap2")\n'
            'motion.gesture(motion.hold{fingers = 1, duration = 0.5}):emit("hold")\n')

ms = livecheck.Motionscript("daemon", folder)


def switches():
    total = {}
    for status in glob.glob(f"/proc/{ms.proc.pid}/task/*/status"):
        try:
            fields = dict(line.split(":", 1) for line in open(status) if ":" in line)
            total[status.split("/")[4]] = int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
        except (OSError, KeyError, ValueError):
            pass
    return total


def wait_unbounded(what, timeout=30):
    """Until the main thread waits with no timeout: epoll_wait (232) with a timeout of -1 (its
    fourth argument), or epoll_pwait2 (441) with a NULL timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fields = open(f"/proc/{ms.proc.pid}/syscall").read().split()
        if (fields[0] == "232" and fields[4] == "0xffffffff") or (fields[0] == "441" and fields[4] == "0x0"):
            return
        time.sleep(0.02)
    livecheck.fail(f"{what}: the main thread never waited without a timeout: {open(f'/proc/{ms.proc.pid}/syscall').read()}")


def idle_window(what):
    wait_unbounded(what)
    before = switches()
    time.sleep(WINDOW)  # the window counted, not an ordering
    after = switches()
    woke = {tid: after[tid] - before.get(tid, 0) for tid in after if after[tid] != before.get(tid, 0)}
    expect(not woke and set(after) == set(before),
           f"{what}: threads woke in {WINDOW} s: {woke} (thread ids before {sorted(before)}, after {sorted(after)}); stderr: {ms.err()}")
    print(f"ok: {what}: 0 wake-ups of {len(after)} threads in {WINDOW} s")


expect(ms.wait_stderr("waiting for one to be plugged in"), f"the daemon does not wait for a device: {ms.err()}")
expect(ms.wait_lines(lambda l: l.get("plugin") == "taps" and l.get("status") == "loaded") is not None,
       f"taps did not load: {ms.lines} {ms.err()}")
idle_window("waiting for a device")

touch = livecheck.Touchscreen(name="motionscript-check daemon idle")
ms.wait_open(touch.path)
idle_window("a touchscreen open")

touch.touch(0, 1, 300, 300)
touch.syn()
touch.lift(0)
touch.syn()
expect(ms.wait_lines(lambda l: l.get("name") == "p" and l.get("value", {}).get("phase") == "up") is not None,
       f"no up line: {ms.lines} {ms.err()}")
idle_window("after a tap, its decisions made")

ms.signal(signal.SIGINT)
code = ms.finish()
expect(code == 0, f"exit {code}: {ms.err()}")
touch.close()
livecheck.release_folder(folder)
