#!/usr/bin/python3
"""The daemon as a service on a real kernel (issue "run it all day"): under a fake NOTIFY_SOCKET
listener it says READY=1 and STATUS=; `ctl status --json` lists the plugins; `ctl reload NAME`,
`disable`, `enable` and SIGHUP do what they say; `ctl monitor --recognizers swipe` says why a
swipe the wrong way failed; `ctl pause` ungrabs the device and releases the
held key (both read back from the kernel), `resume` grabs again; `ctl record --last 10 -o f`
replayed by `daemon DIR --events f --dry-run` makes the live run's actions; `ctl scenario` makes
a folder `motionscript test` passes; a second daemon on the socket refuses to start; `ctl stop`
ends it with STOPPING=1 and exit 0.

Standalone (python3-evdev, root, /dev/uinput): exit 0 when every part passes, 1 on the first
failure, 77 when it cannot run here. MOTIONSCRIPT names the binary, LIVE_WORK a scratch folder."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

try:
    from evdev import InputDevice, ecodes as e
except ImportError:
    print("SKIP: python3-evdev is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livecheck  # noqa: E402
from livecheck import expect, fail  # noqa: E402

if not os.path.exists("/dev/uinput"):
    livecheck.skip("no /dev/uinput (modprobe uinput)")

MS = livecheck.MOTIONSCRIPT
WORK = os.path.join(livecheck.WORK, "daemon-control")
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK + "/config")


def socket_folder():
    """A folder where a Unix socket can be bound (the VM's shared folder is 9p, which cannot)."""
    for base in [os.environ.get("XDG_RUNTIME_DIR"), "/run", "/dev/shm", "/dev", WORK]:
        if not base or not os.path.isdir(base):
            continue
        folder = os.path.join(base, f"motionscript-check-{os.getpid()}")
        try:
            os.makedirs(folder, exist_ok=True)
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            probe.bind(folder + "/probe")
            probe.close()
            os.unlink(folder + "/probe")
            return folder
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)
    livecheck.skip("no folder where a Unix socket can be bound")


SOCK = socket_folder() + "/control.sock"
VIRTUAL = "motionscript virtual input"

with open(WORK + "/config/swipe.lua", "w") as f:
    f.write('local s = motion.swipe{ fingers = 1, direction = "right" }\n'
            'motion.gesture(s):subscribe(function(g) if g.state == "recognized" then motion.keys("ctrl+alt+Right") end end)\n')
with open(WORK + "/config/shift.lua", "w") as f:
    f.write('motion.pointers():subscribe(function(p)\n'
            '  if p.phase == "down" then motion.keyDown("leftshift") elseif p.phase == "up" then motion.keyUp("leftshift") end\n'
            'end)\n')


class Notify:
    """A datagram socket standing in for systemd's NOTIFY_SOCKET."""

    def __init__(self, path):
        self.path = path
        self.messages = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        # "@…": the abstract namespace, as systemd may give it.
        self.sock.bind("\0" + path[1:] if path.startswith("@") else path)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            self.messages.append(self.sock.recv(4096).decode())

    def wait(self, predicate, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in list(self.messages):
                if predicate(m):
                    return m
            time.sleep(0.02)
        fail(f"no notify message matched within {timeout} s; got {self.messages}")


def ctl(*args, timeout=30):
    proc = subprocess.run([MS, "ctl", "--socket", SOCK, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")


def ok(*args):
    code, out, err = ctl(*args)
    expect(code == 0, f"ctl {' '.join(args)} exited {code}: {err}")
    return out


def status():
    return {p["name"]: p for p in json.loads(ok("status", "--json"))["plugins"]}


def grab_free(path):
    """Whether another program may grab the device now (EVIOCGRAB), i.e. motionscript does not hold it."""
    device = InputDevice(path)
    try:
        device.grab()
        device.ungrab()
        return True
    except OSError:
        return False
    finally:
        device.close()


def virtual_device(timeout=20):
    device = livecheck.find_device(VIRTUAL, timeout)
    if device is None:
        fail(f"no input device named '{VIRTUAL}' appeared")
    return device


def swipe(touch, tracking, step=60, start=200):
    touch.touch(0, tracking, start, 500)
    touch.syn()
    for i in range(1, 11):
        time.sleep(0.01)
        touch.move(0, start + i * step, 500)
        touch.syn()
    time.sleep(0.01)
    touch.lift(0)
    touch.syn()
    time.sleep(0.2)


notify = Notify(f"@motionscript-check-notify-{os.getpid()}")
touch = livecheck.Touchscreen()
env = dict(os.environ, NOTIFY_SOCKET=notify.path)
daemon_args = [MS, "daemon", WORK + "/config", "--device", touch.path, "--grab", "--socket", SOCK]
daemon = subprocess.Popen(daemon_args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
lines = []
threading.Thread(target=lambda: [lines.append(json.loads(l)) for l in daemon.stdout], daemon=True).start()
stderr = []
threading.Thread(target=lambda: [stderr.append(l.decode(errors="replace")) for l in daemon.stderr], daemon=True).start()

# READY=1 with the counts.
ready = notify.wait(lambda m: "READY=1" in m)
expect("STATUS=2 plugins, 1 device" in ready, f"READY came with {ready!r}")
print("ok: READY=1 and", [l for l in ready.split("\n") if l.startswith("STATUS=")][0])

# A second daemon on the same socket refuses to start, naming the first.
second = subprocess.run([MS, "daemon", WORK + "/config", "--device", touch.path, "--socket", SOCK],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
expect(second.returncode == 1 and f"process {daemon.pid}" in second.stderr.decode(),
       f"a second daemon: exit {second.returncode}, {second.stderr.decode()!r}")
print("ok: a second daemon refuses to start:", second.stderr.decode().strip().splitlines()[0])

# ctl status --json lists the plugins, running; the device is grabbed.
plugins = status()
expect(sorted(plugins) == ["shift", "swipe"] and all(p["state"] == "running" for p in plugins.values()), f"status: {plugins}")
expect(not grab_free(touch.path), "the daemon (--grab) does not hold the device")
print("ok: ctl status --json lists", sorted(plugins))

# Live gestures, then the flight recorder.
virtual = None
swipe(touch, 11)
virtual = virtual_device()
swipe(touch, 12)
time.sleep(0.3)
live = [(l["plugin"], l["action"], l.get("keys") or l.get("key")) for l in list(lines) if "action" in l and not l.get("auto")]
expect(("swipe", "keys", "ctrl+alt+Right") in live, f"no swipe action live: {live}")
record = WORK + "/f.evemu"
ok("record", "--last", "10", "-o", record)
replay = subprocess.run([MS, "daemon", WORK + "/config", "--events", record, "--dry-run"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, timeout=60)
expect(replay.returncode == 0, f"the replay exited {replay.returncode}: {replay.stderr.decode()}")
replayed = [(l["plugin"], l["action"], l.get("keys") or l.get("key"))
            for l in map(json.loads, replay.stdout.splitlines()) if "action" in l and not l.get("auto")]
expect(replayed == live, f"the replay made {replayed}, the live run {live}")
kinds = livecheck.script('motion.pointers():filter(function(p) return p.phase == "down" end)'
                        ':map(function(p) return p.device and (p.device.kind .. " " .. p.device.name) or "none" end):emit("d")\n',
                        "daemon-device.lua")
code, device_lines, _, err = livecheck.run("run", kinds, "--events", record)
seen = {l["value"] for l in device_lines if l.get("name") == "d"}
expect(code == 0 and seen == {"touchscreen " + touch.name}, f"the recording's device in a replay: {seen} ({err})")
print(f"ok: ctl record --last 10 replays to the live run's {len(live)} actions, naming the device ({seen.pop()})")

# ctl scenario: a folder motionscript test passes.
ok("scenario", "misfire", "--last", "10", "-o", WORK + "/scenarios")
test = subprocess.run([MS, "test", WORK + "/scenarios"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
expect(test.returncode == 0, f"motionscript test on the scenario exited {test.returncode}: {test.stdout.decode()} {test.stderr.decode()}")
print("ok: ctl scenario makes a folder motionscript test passes")

# ctl reload NAME: that plugin's next version, the other untouched.
before = status()
out = ok("reload", "swipe")
after = status()
expect(after["swipe"]["version"] == before["swipe"]["version"] + 1 and after["shift"]["version"] == before["shift"]["version"],
       f"reload swipe: {before} → {after} ({out})")
code, _, err = ctl("reload", "nope")
expect(code == 1 and "no plugin named nope" in err, f"reload nope: exit {code}, {err!r}")
print("ok: ctl reload swipe →", out.strip())

# disable / enable.
ok("disable", "swipe")
expect(status()["swipe"]["state"] == "disabled", "disable did not disable")
n = len(lines)
swipe(touch, 13)
expect(not [l for l in lines[n:] if l.get("plugin") == "swipe" and "action" in l], "a disabled plugin acted")
ok("enable", "swipe")
expect(status()["swipe"]["state"] == "running", "enable did not bring it back")
print("ok: ctl disable / enable")

# ctl monitor --recognizers: why a swipe the wrong way did not fire, in the readable form.
monitor = subprocess.Popen([MS, "ctl", "--socket", SOCK, "monitor", "--recognizers", "swipe"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
watched = []
threading.Thread(target=lambda: [watched.append(l.decode(errors="replace").rstrip("\n")) for l in monitor.stdout],
                 daemon=True).start()
wanted = "swipe.lua:1 swipe#1(fingers=1, direction=right) failed: wrong direction left, wants right"
deadline = time.monotonic() + 10
tracking = 30
# Swipes to the left until the monitor (subscribing meanwhile) reports one.
while time.monotonic() < deadline and not any(wanted in l for l in watched):
    swipe(touch, tracking, step=-60, start=800)
    tracking += 1
monitor.terminate()
monitor.wait(10)
expect(any(wanted in l for l in watched), f"ctl monitor --recognizers printed {watched}")
print("ok: ctl monitor --recognizers:", next(l for l in watched if wanted in l))

# SIGHUP: RELOADING=1, every plugin reloaded, READY=1 again.
before = status()
count = len(notify.messages)
daemon.send_signal(signal.SIGHUP)
notify.wait(lambda m: m.startswith("RELOADING=1\nMONOTONIC_USEC="))
deadline = time.monotonic() + 20
while time.monotonic() < deadline and not any("READY=1" in m for m in notify.messages[count:]):
    time.sleep(0.02)
after = status()
expect(all(after[name]["version"] == before[name]["version"] + 1 for name in before), f"SIGHUP: {before} → {after}")
print("ok: SIGHUP reloads every plugin (RELOADING=1 … READY=1)")

# pause: a key held by a plugin goes up and the device is ungrabbed, read back from the kernel.
touch.touch(0, 20, 300, 300)
touch.syn()
deadline = time.monotonic() + 10
while time.monotonic() < deadline and e.KEY_LEFTSHIFT not in virtual.active_keys():
    time.sleep(0.02)
expect(e.KEY_LEFTSHIFT in virtual.active_keys(), "the shift plugin's key is not down")
ok("pause")
expect(e.KEY_LEFTSHIFT not in virtual.active_keys(), f"pause left keys down: {virtual.active_keys()}")
expect(grab_free(touch.path), "pause did not ungrab the device")
expect(status and json.loads(ok("status", "--json"))["paused"], "status does not say paused")
touch.lift(0)
touch.syn()
ok("resume")
expect(not grab_free(touch.path), "resume did not grab the device again")
print("ok: ctl pause releases held keys and ungrabs (read back from the kernel); resume grabs again")

# SIGUSR1 is the same emergency stop.
daemon.send_signal(signal.SIGUSR1)
deadline = time.monotonic() + 10
while time.monotonic() < deadline and not grab_free(touch.path):
    time.sleep(0.05)
expect(grab_free(touch.path), "SIGUSR1 did not ungrab")
daemon.send_signal(signal.SIGUSR1)
deadline = time.monotonic() + 10
while time.monotonic() < deadline and grab_free(touch.path):
    time.sleep(0.05)
expect(not grab_free(touch.path), "a second SIGUSR1 did not resume")
print("ok: SIGUSR1 pauses and resumes")

# stop: STOPPING=1, exit 0.
ok("stop")
try:
    code = daemon.wait(30)
except subprocess.TimeoutExpired:
    daemon.kill()
    fail("ctl stop did not end the daemon")
expect(code == 0, f"the daemon exited {code}: {''.join(stderr)}")
notify.wait(lambda m: m == "STOPPING=1")
code, _, err = ctl("status")
expect(code == 3 and "motionscript daemon" in err, f"ctl with no daemon: exit {code}, {err!r}")
print("ok: ctl stop → STOPPING=1, exit 0; then ctl exits 3")
touch.close()
