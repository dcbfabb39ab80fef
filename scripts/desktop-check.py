"""scripts/test-desktop's driver: runs `motionscript run` on a FIFO device under a desktop and
checks that a swipe fires the binding of the focused application only, that switching the focus
switches the binding, and (given RESTART) that a compositor restart is survived.

    desktop-check.py MOTIONSCRIPT PROVIDER APP_A APP_B FOCUS_A FOCUS_B [RESTART]

FOCUS_A / FOCUS_B / RESTART are shell commands (focus a window; restart the compositor and
focus APP_A again). DESKTOP_CHECK_ARGS adds arguments to `run` (e.g. --watch). With
DESKTOP_CHECK_DAEMON=1 it runs `motionscript daemon` instead, one plugin per binding, and checks
that each focus change is one app line for the whole daemon. Each step
waits for the app line motionscript writes at the focus change before feeding the next swipe:
no sleeps decide the order."""
import json, os, queue, struct, subprocess, sys, tempfile, threading, time

binary, provider, app_a, app_b, focus_a, focus_b = sys.argv[1:7]
restart = sys.argv[7] if len(sys.argv) > 7 else None
work = tempfile.mkdtemp(prefix="test-desktop-")
daemon = os.environ.get("DESKTOP_CHECK_DAEMON") == "1"
def binding(name):
    return f'''
local swipe = motion.swipe{{fingers = 1, minDistance = 100, apps = "{name}"}}
motion.gesture(swipe):subscribe(function(g)
  if g.state == "recognized" then motion.emit("swipe", {{binding = "{name}", app = g.app.id}}) end
end)
'''
fifo = os.path.join(work, "device")
os.mkfifo(fifo)
common = ["--device", fifo, "--axes", "0:1000,0:1000", "--app-provider", provider, "--dry-run"]
if daemon:
    # One plugin per binding: the one provider's changes reach both.
    folder = os.path.join(work, "plugins")
    os.mkdir(folder)
    for name in (app_a, app_b):
        with open(os.path.join(folder, f"{name.lower()}.lua"), "w") as f:
            f.write(binding(name))
    command = [binary, "daemon", folder] + common + ["--socket", os.path.join(work, "control.sock")]
else:
    script = os.path.join(work, "per-app.lua")
    with open(script, "w") as f:
        f.write(binding(app_a) + binding(app_b))
    command = [binary, "run", script] + common + os.environ.get("DESKTOP_CHECK_ARGS", "").split()
proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
lines = queue.Queue()
threading.Thread(target=lambda: [lines.put(json.loads(l)) for l in proc.stdout], daemon=True).start()
stderr = []
threading.Thread(target=lambda: [stderr.append(l) for l in proc.stderr], daemon=True).start()
device = os.open(fifo, os.O_WRONLY)
clock = time.monotonic()

seen = []
latencies = []
def fail(message):
    proc.kill()
    sys.exit(f"test-desktop ({provider}): {message}\nlines seen:\n{seen[-10:]}\nstderr:\n{''.join(stderr)}")

def expect_line(what, matches, timeout=20, unexpected=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            continue
        seen.append(line)
        if matches(line):
            return line
        if unexpected and unexpected(line):
            fail(f"waiting for {what}: unexpected line {line}")
    fail(f"no {what} within {timeout} s")

def event(type_, code, value):
    t = time.clock_gettime(time.CLOCK_MONOTONIC)
    return struct.pack("<qqHHi", int(t), int((t - int(t)) * 1e6), type_, code, value)

def swipe(tracking):
    syn = lambda: event(0, 0, 0)
    os.write(device, event(3, 0x2f, 0) + event(3, 0x39, tracking) + event(3, 0x35, 100) + event(3, 0x36, 500)
             + event(1, 0x14a, 1) + event(3, 0, 100) + event(3, 1, 500) + syn())
    for x in (200, 300, 400):
        time.sleep(0.01)
        os.write(device, event(3, 0x35, x) + event(3, 0, x) + syn())
    time.sleep(0.01)
    os.write(device, event(3, 0x39, -1) + event(1, 0x14a, 0) + syn())

def is_app(name):
    return lambda l: isinstance(l.get("app"), dict) and l["app"]["id"].lower() == name.lower()

# DESKTOP_CHECK_LATENCY=SECONDS: the app line must come at most this long after the focus
# command returned (the compositor has switched the focus by then).
latency_bound = float(os.environ.get("DESKTOP_CHECK_LATENCY", "0") or 0)

def focus_then_swipe(command, name, tracking):
    began = time.monotonic()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    focused = time.monotonic()
    expect_line(f"app line for {name}", is_app(name))
    # The line is read by a thread: one that came while the command ran is dated 0.
    latency = max(0.0, time.monotonic() - focused)
    if latency_bound and latency > latency_bound:
        fail(f"the app line for {name} came {latency * 1000:.0f} ms after the focus changed (at most {latency_bound * 1000:.0f} ms)")
    latencies.append((latency, focused - began))
    swipe(tracking)
    # The daemon: one app line per change for all its plugins, none tagged with a plugin.
    line = expect_line(f"swipe for {name}", lambda l: l.get("name") == "swipe",
                       unexpected=(lambda l: "app" in l) if daemon else None)
    if daemon and line.get("plugin") != name.lower():
        fail(f"focused {name}, the plugin {line.get('plugin')} fired")
    if line["value"]["binding"] != name or line["value"]["app"].lower() != name.lower():
        fail(f"focused {name}, the swipe fired {line['value']}")
    mode = " daemon" if daemon else (" " + os.environ["DESKTOP_CHECK_ARGS"] if os.environ.get("DESKTOP_CHECK_ARGS") else "")
    print(f"test-desktop ({provider}{mode}): {name} focused: its binding fired ({line['value']})")

focus_then_swipe(focus_a, app_a, 1)
focus_then_swipe(focus_b, app_b, 2)
focus_then_swipe(focus_a, app_a, 3)
print(f"test-desktop ({provider}): app lines {', '.join(f'{l * 1000:.1f}' for l, _ in latencies)} ms after the focus commands"
      f" returned (the commands took {', '.join(f'{c * 1000:.0f}' for _, c in latencies)} ms)")
if restart:
    subprocess.run(restart, shell=True, check=True, stdout=subprocess.DEVNULL)
    expect_line(f"app line for {app_a} after the restart", is_app(app_a), timeout=30)
    swipe(4)
    line = expect_line("swipe after the restart", lambda l: l.get("name") == "swipe")
    if line["value"]["binding"] != app_a:
        fail(f"after the restart the swipe fired {line['value']}")
    # DESKTOP_CHECK_RESTART_WORDS="LOST|BACK": what the provider says (default: a lost socket's words).
    lost, back = os.environ.get("DESKTOP_CHECK_RESTART_WORDS", "connection lost|connected again").split("|")
    if not any(lost in l for l in stderr) or not any(back in l for l in stderr):
        fail(f"no warning about the lost and regained compositor ('{lost}', '{back}')")
    print(f"test-desktop ({provider}): the compositor restarted; the provider reconnected ({line['value']})")
if daemon:
    # The choice is said at start, and `ctl status` names the provider and the focused app
    # (APP_A, focused last).
    if not any(f"focus from {provider} (--app-provider {provider})" in l for l in stderr):
        fail(f"the daemon did not say at start which provider it chose")
    status = subprocess.run([binary, "ctl", "--socket", os.path.join(work, "control.sock"), "status", "--json"],
                            capture_output=True, text=True, check=True)
    focus = json.loads(status.stdout).get("focus") or {}
    if focus.get("provider") != provider or focus.get("connected") is not True \
            or (focus.get("app") or {}).get("id", "").lower() != app_a.lower():
        fail(f"ctl status --json: focus {focus}")
    text = subprocess.run([binary, "ctl", "--socket", os.path.join(work, "control.sock"), "status"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    focus_line = next((l for l in text if l.startswith("focus: ")), "")
    if not focus_line.lower().startswith(f"focus: {provider} (--app-provider {provider}), connected: {app_a.lower()}"):
        fail(f"ctl status: {text}")
    print(f"test-desktop ({provider} daemon): ctl status: {focus_line}")
    # The flight recorder kept the focus changes: its recording, replayed through the same
    # plugins, fires the same bindings in the same order.
    recording = os.path.join(work, "flight.evemu")
    subprocess.run([binary, "ctl", "record", "--socket", os.path.join(work, "control.sock"), "--output", recording],
                   check=True, stdout=subprocess.DEVNULL)
    replay = subprocess.run([binary, "daemon", folder, "--events", recording], capture_output=True, text=True)
    fired = [json.loads(l)["plugin"] for l in replay.stdout.splitlines() if '"name":"swipe"' in l]
    if replay.returncode != 0 or fired != [app_a.lower(), app_b.lower(), app_a.lower()]:
        fail(f"the flight recording replayed fired {fired} (exit {replay.returncode}): {replay.stdout}{replay.stderr}")
    print(f"test-desktop ({provider} daemon): ctl record's recording replays the same bindings ({fired})")
os.close(device)
# The daemon waits for its device to come back: it stops at SIGTERM (exit 0).
if daemon:
    proc.terminate()
proc.wait(timeout=20)
if proc.returncode != 0:
    fail(f"exit {proc.returncode}")
