#!/usr/bin/python3
"""The lisgd rows of scripts/bench, run inside the test VM (scripts/test-live's, as root; started by
scripts/bench-lisgd, which see). Arguments: STAMP SWIPES ROUNDS [ONLY...].

A real protocol-B touchscreen (uinput, 10 units/mm) is tagged as udev would tag it, so libinput
takes it; then, one after the other on the same input, in ROUNDS interleaved rounds:
  lisgd                      lisgd -d NODE -g '1,LR,*,*,R,STAMP FILE' (Debian's package; libinput)
  run                        motionscript run swipe.lua --device NODE
  daemon, 1 plugin           motionscript daemon DIR --device NODE (the same swipe as a plugin)
  daemon, 10 plugins         the same plugin and nine others (scripts/bench's ten)
each fed SWIPES one-finger swipes to the right (a down, 30 moves of 2 mm at 8 ms, a lift: 32
frames), the swipe bound to `sh -c 'STAMP FILE'` on both sides (lisgd's system(); our
motion.exec of a string), STAMP a static program that appends CLOCK_MONOTONIC to FILE the
moment it starts. Rows:
  - CPU per input frame: time on CPU of every thread of the process (/proc/PID/task/*/schedstat,
    nanoseconds) over the swipes, minus what it spends idle over as long (measured before them);
    the median of the rounds.
  - Latency, finger lift -> command running: the STAMP time minus the time the harness read just
    before writing the lift frame; p50 and p99 of all swipes of all rounds.
Each as a ratio to lisgd. A swipe whose command does not run within 2 s fails the benchmark.

`icount` (scripts/bench-lisgd sets LIVE_ICOUNT: the VM's clock counts instructions, one CPU): the
rows above, where CPU per frame is instructions executed on the process's threads, kernel and user
space (1 ns each), whatever load this machine has. Each session also prints what the kernel did
per frame (context switches, page faults, moves to another CPU, threads, the system share of its
clock ticks). With more than one round, each round's ratios to that round's lisgd are printed too
(paired: the processes of a round share its load).

`pin=N`: each process measured runs on CPU N of the VM's two and the harness on the other, as a
real touchscreen's frames come from an interrupt rather than from a process on the same CPU. On
TCG's clock a switch of address space (the harness's, then the process's) flushes QEMU's
translation caches, and what the process then pays for its frame grows with the code and data it
touches, not with the instructions it runs.

`pages` (instead): the pages each process touches per frame, by mapping.

`perf` (instead): each process once, `perf record` attached for the swipes (a software clock: TCG
has no PMU), and where its time went, by function and by library (the kernel's own included).

`callgrind` (instead of the rows above): instructions, which are repeatable where CPU time under TCG
on a shared machine is not (rounds vary by +-40 %). Each process runs under
`valgrind --tool=callgrind` (not its children: the launched commands are not counted) twice, for
SWIPES swipes and for SMALL_SWIPES; the row is the difference of the two totals over the difference
of their frames: user-space instructions per input frame in the steady state (start-up and shutdown
cancel out), every thread of the process, the libraries it calls (libinput, libevdev, libc) and the
launching of commands (fork/exec in the parent) included. Then the same two runs under `strace -f -ff`
give the system calls per frame the same way (the kernel side): those of the process's threads, the
launched commands' (the `sh -c` and stamp, on both sides) left out as in callgrind. Under valgrind a process is some 50x
slower, so the feed is slowed to a frame every CALLGRIND_FRAME_S (a slower swipe: neither swipe
has a minimum speed; lisgd's 800 ms time-out still holds it) and a swipe's command may take up to
60 s; every swipe's command must still run (a process that fell behind the kernel's evdev buffer
would drop frames and miss swipes)."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "live-checks"))
import livecheck  # noqa: E402

stamp, swipes, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
only = [w for w in sys.argv[4:] if w not in ("strace", "callgrind", "perf", "icount", "ftrace", "pages") and "=" not in w]
# perf-period=NS and perf-sort=KEYS (perf report --sort) tune the `perf` mode.
settings = dict(w.split("=", 1) for w in sys.argv[4:] if "=" in w)
# `strace`: each process runs under `strace -f -c` instead (its CPU figures are then strace's):
# system calls per frame, to see what a frame costs the kernel.
trace = "strace" in sys.argv[4:]
counting = "callgrind" in sys.argv[4:]
# `perf`: each process runs once under `perf record` (a software clock: TCG has no PMU), kernel
# and user space, and the functions it spent its time in are printed: where a frame's time goes.
profiling = "perf" in sys.argv[4:]
# `ftrace`: with `icount` (one CPU). On TCG's two CPUs the VM's kernel (Debian's 6.1) now and then
# dies while the tracer is on (a BUG in its NMI entry, "Fatal exception in interrupt"), and the VM
# then reports nothing: 1 of 4 runs of `10 1 run ftrace` printed the panic, 3 others hung until
# the VM's time-out.
# The kernel's function_graph tracer on the process's threads, entries only (depth 1):
# each system call, fault and interrupt the process's frames cost the kernel, inclusive.
tracing = "ftrace" in sys.argv[4:]
TRACEFS = "/sys/kernel/tracing"
# `pages` (instead): the memory pages each process touches per frame, by mapping (its page-table
# entries' accessed bits, cleared through /proc/PID/clear_refs before a frame and counted in
# /proc/PID/smaps after it): its footprint. Under TCG each page a process touches after a switch
# of address space costs a walk of the emulated page tables (QEMU's TLB is flushed then), a cost
# no instruction count sees.
# pin=N: every process measured runs on CPU N, the harness on the others (see session()).
paging = "pages" in sys.argv[4:]
touched = {}  # mapping -> pages touched, summed over the measured frames of the current session


def referenced(pid):
    """Pages of each mapping of pid whose accessed bit is set (smaps' Referenced, 4 kB pages)."""
    out, name = {}, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                name = fields[5] if len(fields) > 5 else "[anonymous]"
                name = os.path.basename(name) if name.startswith("/") else name
                perms = fields[1]
                name = f"{name} ({'code' if 'x' in perms else 'data'})"
            elif fields and fields[0] == "Referenced:" and fields[1] != "0":
                out[name] = out.get(name, 0) + int(fields[1]) // 4
    return out


def ftrace_write(name, value):
    with open(os.path.join(TRACEFS, name), "w") as f:
        f.write(value)
SMALL_SWIPES = 2
CALLGRIND_FRAME_S = 0.024
clock = lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
MS = livecheck.MOTIONSCRIPT
FRAMES = 32
frame_s = CALLGRIND_FRAME_S if counting else 0.008

# /run is the host's, read-only: a tmpfs of our own for udev's database and the stamps.
subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run"], check=True)
os.makedirs("/run/udev/data")
open("/run/udev/control", "w").close()
work = "/run/bench"
os.makedirs(work)

with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
    print(f"clock source in the VM: {f.read().strip()}", file=sys.stderr)
screen = livecheck.Touchscreen(name="bench-lisgd touchscreen", resolution=10)
minor = os.minor(os.stat(screen.path).st_rdev)
with open(f"/run/udev/data/c13:{minor}", "w") as f:
    # What udev's input_id builtin writes for a touchscreen; libinput ignores a node without ID_INPUT.
    f.write("E:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\n")

stamps = os.path.join(work, "stamps")
# The same command line lisgd runs through system(): a string is run by `sh -c` (motion.exec), so both
# sides start a shell that starts the stamp, and the latency rows compare equal work.
swipe = f'motion.swipe{{fingers = 1, direction = "right"}}:on("recognized", function() motion.exec("{stamp} {stamps}") end)\n'
with open(os.path.join(work, "swipe.lua"), "w") as f:
    f.write(swipe)
one, ten = os.path.join(work, "one"), os.path.join(work, "ten")
os.makedirs(one)
os.makedirs(ten)
for folder in (one, ten):
    with open(os.path.join(folder, "a-swipe.lua"), "w") as f:
        f.write(swipe)
# The nine others of scripts/bench's 10-plugin row (its plugins block).
others = {
    "b-left3": 'motion.swipe{fingers = 3, direction = "left"}:on("recognized", function() motion.keys("ctrl+alt+Right") end)',
    "c-right3": 'motion.swipe{fingers = 3, direction = "right"}:on("recognized", function() motion.keys("ctrl+alt+Left") end)',
    "d-up4": 'motion.swipe{fingers = 4, direction = "up"}:on("recognized", function() motion.exec{"gnome-terminal"} end)',
    "e-tap2": 'motion.tap{fingers = 2}:on("recognized", function() motion.mouse.button("right") end)',
    "f-double": 'motion.tap{taps = 2, fingers = 3}:on("recognized", function() motion.keys("super") end)',
    "g-hold": 'motion.hold{fingers = 3, duration = 0.6}:on("began", function() motion.exec{"rofi", "-show", "window"} end)',
    "h-pinch": 'local zoom = motion.property(1)\nmotion.gesture(motion.scale{}):scale(zoom):subscribe(zoom)',
    "i-drag2": 'local box = motion.property({x = 0, y = 0})\nmotion.gesture(motion.pan{minPointers = 2}):translation(box):subscribe(box)',
    "j-count": 'local n = 0\nmotion.pointers():subscribe(function(p) n = n + 1 end)',
}
for name, text in others.items():
    with open(os.path.join(ten, name + ".lua"), "w") as f:
        f.write(text + "\n")

node = screen.path
configs = {
    "lisgd": ["/usr/bin/lisgd", "-d", node, "-w", "1920", "-h", "1080", "-g", f"1,LR,*,*,R,{stamp} {stamps}"],
    "run": [MS, "run", os.path.join(work, "swipe.lua"), "--device", node],
    "daemon1": [MS, "daemon", one, "--device", node],
    "daemon10": [MS, "daemon", ten, "--device", node],
}
if counting:
    # The daemon's time limit per call (1 s, wall clock) does not fit a process some 50x slower: a
    # launch under valgrind takes seconds. A larger limit keeps its bookkeeping (none is run's default).
    for name in ("daemon1", "daemon10"):
        configs[name] += ["--timeout", "60"]
    # lisgd's time-out (800 ms from the first to the last event) holds a 744 ms swipe only when it
    # keeps up: under strace it may lag; a longer one changes no work.
    configs["lisgd"][1:1] = ["-m", "10000"]
if only:
    configs = {k: v for k, v in configs.items() if k == "lisgd" or k in only}


def on_cpu(pid):
    """Nanoseconds on CPU of every thread of pid so far."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError):
            pass
    return total


def kernel_side(pid):
    """What the kernel did for the process so far, summed over its threads: context switches
    (voluntary: it slept; involuntary: preempted), minor and major page faults, and user and
    system time in clock ticks (/proc/PID/stat: coarse, but it splits the CPU time of a frame
    into ours and the kernel's)."""
    out = {"voluntary": 0, "involuntary": 0, "threads": 0}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        out["voluntary"] += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        out["involuntary"] += int(line.split()[1])
            out["threads"] += 1
            # Moves from one CPU to another (CONFIG_SCHED_DEBUG): a moved thread starts cold.
            with open(f"/proc/{pid}/task/{task}/sched") as f:
                for line in f:
                    if line.startswith("se.nr_migrations"):
                        out["migrations"] = out.get("migrations", 0) + int(line.split()[-1])
        except (OSError, ValueError):
            pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # After the name: state is fields[0]; minflt is stat field 10, majflt 12, utime 14, stime 15.
    out["minflt"], out["majflt"] = int(fields[7]), int(fields[9])
    out["utime"], out["stime"] = int(fields[11]), int(fields[12])
    return out


def has_open(pid, path):
    target = os.path.realpath(path)
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:  # gone, or not there yet
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                return True
        except OSError:
            pass
    return False


def stamp_count():
    try:
        with open(stamps) as f:
            return f.read().count("\n")
    except FileNotFoundError:
        return 0


def last_stamp():
    with open(stamps) as f:
        return float(f.read().split()[-1])


def until(t):
    while True:
        left = t - clock()
        if left <= 0:
            return
        time.sleep(left)


def one_swipe(y, pid=None):
    """A one-finger swipe to the right; returns the time read just before its lift frame.
    pid (`pages`): the pages that process touches for each of the moves 10-19 are added to
    `touched` (its accessed bits cleared before each, counted when the next is due)."""
    t = clock()
    screen.touch(0, 1, 300, y)
    screen.syn()
    for i in range(1, FRAMES - 1):
        until(t + i * frame_s)
        if pid and 11 <= i <= 20:
            for mapping, n in referenced(pid).items():
                touched[mapping] = touched.get(mapping, 0) + n
        if pid and 10 <= i <= 19:
            # 1 clears the accessed bits; 4 (soft-dirty) then flushes the process's TLB, without
            # which a page whose translation is still cached is touched without the bit being set
            # again (its cost: a write fault on each page the frame writes to).
            for what in ("1", "4"):
                with open(f"/proc/{pid}/clear_refs", "w") as f:
                    f.write(what)
        screen.move(0, 300 + 20 * i, y)
        screen.syn()
    until(t + (FRAMES - 1) * frame_s)
    screen.lift(0)
    lifted = clock()
    screen.syn()
    return lifted


def session(name, command, swipes=swipes, wrap=None):
    """Starts command, measures its idle CPU, feeds the swipes; returns (ns per frame, latencies).
    wrap: None, "strace" or "callgrind" (the process runs under it; its output is in work/NAME.WRAP)."""
    wrap = wrap or ("strace" if trace else None)
    if os.path.exists(stamps):
        os.unlink(stamps)
    err = open(os.path.join(work, name + ".err"), "w")
    if wrap == "strace" and counting:  # one file per thread or child: the children can be told apart
        shutil.rmtree(os.path.join(work, name + ".ff"), ignore_errors=True)
        os.makedirs(os.path.join(work, name + ".ff"))
        command = ["strace", "-f", "-ff", "-o", os.path.join(work, name + ".ff", "t"), *command]
    elif wrap == "strace":
        command = ["strace", "-f", "-c", "-o", os.path.join(work, name + ".strace"), *command]
    elif wrap == "callgrind":  # valgrind runs the program in its own process (same pid); children untraced
        command = ["valgrind", "--tool=callgrind", "--trace-children=no", "--vgdb=no",
                   f"--callgrind-out-file={os.path.join(work, name + '.callgrind')}", *command]
    # pin=N: the process on CPU N and the harness on the others (a CPU that runs nothing else
    # between frames keeps the process's translations warm: what TCG's per-frame cost hangs on).
    pin = {int(settings["pin"])} if "pin" in settings else None
    if pin and (max(pin) >= os.cpu_count() or os.cpu_count() < 2):
        livecheck.fail(f"pin={settings['pin']}: names a CPU of the VM's {os.cpu_count()} (0 to {os.cpu_count() - 1}), "
                       "the harness taking another: two at least (icount's VM has one)")
    if pin:
        os.sched_setaffinity(0, set(range(os.cpu_count())) - pin)
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                            preexec_fn=(lambda: os.sched_setaffinity(0, pin)) if pin else None)
    deadline = clock() + (900 if wrap == "callgrind" else 120)
    pid = proc.pid
    while not has_open(pid, node):
        if wrap == "strace":  # the traced process is strace's child
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
                children = f.read().split()
            pid = int(children[0]) if children else proc.pid
        if proc.poll() is not None or clock() > deadline:
            proc.kill()
            livecheck.fail(f"{name} did not open {node}: {open(err.name).read()}")
        time.sleep(0.05)
    time.sleep(1.0)  # start-up work done
    idle_from, idle_cpu = clock(), on_cpu(pid)
    time.sleep(1.0)
    idle_rate = (on_cpu(pid) - idle_cpu) / (clock() - idle_from)
    if wrap == "perf":  # attached for the swipes alone: start-up is not what a frame costs
        recorder = subprocess.Popen(["perf", "record", "-q", "-N", "-e", "cpu-clock", "-c",
                                     settings.get("perf-period", "200000"), "-p", str(pid),
                                     "-o", os.path.join(work, name + ".perf")], stderr=subprocess.DEVNULL)
        time.sleep(1.0)
    if wrap == "ftrace":
        ftrace_write("tracing_on", "0")
        ftrace_write("current_tracer", "nop")
        ftrace_write("trace", "")
        ftrace_write("set_ftrace_pid", " ".join(os.listdir(f"/proc/{pid}/task")))
        ftrace_write("max_graph_depth", settings.get("ftrace-depth", "2"))
        ftrace_write("set_graph_function", settings.get("ftrace-function", ""))
        # A call's time without the time the task slept in it (others ran meanwhile).
        ftrace_write("options/sleep-time", "0")
        ftrace_write("current_tracer", "function_graph")
        ftrace_write("tracing_on", "1")
    began, cpu, kernel = clock(), on_cpu(pid), kernel_side(pid)
    latencies = []
    for s in range(swipes):
        lifted = one_swipe(300 + (s % 5) * 100, pid if wrap == "pages" else None)
        limit = 60.0 if counting else 2.0
        wait = clock() + limit
        while stamp_count() < s + 1:
            if clock() > wait:
                proc.kill()
                livecheck.fail(f"{name}: swipe {s + 1} ran no command within {limit:g} s: {open(err.name).read()}")
            time.sleep(0.002)
        latencies.append(last_stamp() - lifted)
        time.sleep(0.05)
    took, cpu = clock() - began, on_cpu(pid) - cpu
    after = kernel_side(pid)
    if wrap == "ftrace":
        ftrace_write("tracing_on", "0")
        totals = {}
        with open(os.path.join(TRACEFS, "trace")) as f:
            for line in f:
                m = re.search(r"([0-9.]+) us\s+\|\s+(\S+)\(\);", line) or re.search(r"([0-9.]+) us\s+\|\s+\}\s+/\*\s+(\S+)\s+\*/", line)
                if m:
                    entry = totals.setdefault(m.group(2), [0, 0.0])
                    entry[0] += 1
                    entry[1] += float(m.group(1))
        frames = swipes * FRAMES
        print(f"  {name}: the kernel's entries per frame (count, ns inclusive), {frames} frames:")
        for call, (n, us) in sorted(totals.items(), key=lambda kv: -kv[1][1])[:40]:
            print(f"    {call:40s} {n / frames:6.2f} {us * 1000 / frames:9.0f}")
        ftrace_write("current_tracer", "nop")
    if wrap == "perf":
        recorder.send_signal(2)
        recorder.wait(120)
        traced_pids[name] = pid
    frames = swipes * FRAMES
    ticks = (after["utime"] - kernel["utime"]) + (after["stime"] - kernel["stime"])
    print(f"    {name}: per frame: {(after['voluntary'] - kernel['voluntary']) / frames:.2f} voluntary and "
          f"{(after['involuntary'] - kernel['involuntary']) / frames:.2f} involuntary context switches, "
          f"{(after['minflt'] - kernel['minflt']) / frames:.2f} minor faults, "
          f"{(after.get('migrations', 0) - kernel.get('migrations', 0)) / frames:.2f} moves to another CPU; {after['threads']} threads; "
          f"system {100 * (after['stime'] - kernel['stime']) / max(ticks, 1):.0f} % of {ticks} ticks", file=sys.stderr)
    if stamp_count() != swipes:
        livecheck.fail(f"{name}: {stamp_count()} commands for {swipes} swipes")
    os.kill(pid, 15)
    proc.wait(600 if wrap == "callgrind" else 30)
    err.close()
    if wrap == "callgrind":
        return callgrind_total(os.path.join(work, name + ".callgrind")), latencies
    if wrap == "strace" and counting:
        return strace_total(os.path.join(work, name + ".ff"), pid), latencies
    if trace:
        print(f"  {name}: system calls per frame (strace -f -c, {swipes * FRAMES} frames, commands included)")
        for line in open(os.path.join(work, name + ".strace")):
            f = line.split()
            if len(f) >= 5 and f[3].isdigit() and f[-1] not in ("total", "syscall"):
                print(f"    {f[-1]:16s} {int(f[3]) / (swipes * FRAMES):7.2f}")
    return (cpu - idle_rate * took) / (swipes * FRAMES), latencies


labels = {"lisgd": "lisgd (C, libinput)", "run": "motionscript run", "daemon1": "motionscript daemon, 1 plugin",
          "daemon10": "motionscript daemon, 10 plugins"}


def callgrind_total(path):
    """Instructions executed by the client over its life (every thread: one output file)."""
    for line in open(path):
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    livecheck.fail(f"{path}: no summary line")


def strace_total(folder, pid):
    """System calls of the process's threads (strace -ff: a file per thread or child process). A
    child (the launched command: `sh -c` and stamp, on both sides) calls execve, a thread never
    does; the process's own file (pid) starts with its execve. The parent's side of launching (fork,
    pipes, wait) is counted, the child's is not."""
    calls = 0
    by_name = {}
    for entry in os.listdir(folder):
        with open(os.path.join(folder, entry)) as f:
            lines = [line for line in f if re.match(r"[a-z_0-9]+\(", line)]
        if entry == f"t.{pid}" or not any(line.startswith("execve(") for line in lines):
            calls += len(lines)
            for line in lines:
                call = line[:line.index("(")]
                by_name[call] = by_name.get(call, 0) + 1
    syscalls_by_name.append(by_name)
    return calls


traced_pids = {}  # the process of each `perf` session
syscalls_by_name = []  # of each strace session in turn: steady() prints the difference by name


def steady(name, wrap):
    """(big - small) / frames of the difference: per input frame, start-up and shutdown cancelled."""
    small, lat_small = session(name, configs[name], SMALL_SWIPES, wrap)
    big, lat_big = session(name, configs[name], swipes, wrap)
    per_frame = (big - small) / ((swipes - SMALL_SWIPES) * FRAMES)
    if wrap == "strace":
        b, a = syscalls_by_name[-1], syscalls_by_name[-2]
        diff = {k: (b.get(k, 0) - a.get(k, 0)) / ((swipes - SMALL_SWIPES) * FRAMES) for k in set(a) | set(b)}
        print(f"    {name}: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(diff.items(), key=lambda kv: -kv[1])
                                        if abs(v) >= 0.01), file=sys.stderr)
    print(f"  {name:8s} {wrap:9s} {small:>14,d} ({SMALL_SWIPES} swipes) {big:>14,d} ({swipes} swipes): "
          f"{per_frame:,.1f} per frame; lift -> command max {max(lat_small + lat_big) * 1000:.0f} ms",
          file=sys.stderr)
    return per_frame


if tracing:
    subprocess.run(["mount", "-t", "tracefs", "tracefs", TRACEFS], check=False)
    ftrace_write("buffer_size_kb", "65536")
    for name in configs:
        session(name, configs[name], wrap="ftrace")
    screen.close()
    sys.exit(0)

if paging:
    for name in configs:
        touched.clear()
        session(name, configs[name], wrap="pages")
        frames = swipes * 10
        total = sum(touched.values()) / frames
        print(f"  {name}: {total:.1f} pages touched per frame (moves 10-19 of {swipes} swipes), by mapping:")
        for mapping, n in sorted(touched.items(), key=lambda kv: -kv[1]):
            if n / frames >= 0.5:
                print(f"    {mapping:48s} {n / frames:6.1f}")
    screen.close()
    sys.exit(0)

if profiling:
    for name in configs:
        per_frame, lat = session(name, configs[name], wrap="perf")
        print(f"{name}: {per_frame / 1000:.1f} us per frame under perf; where its threads spent it:")
        # The process's own threads (a launched command is a child: left out, as in the CPU row).
        report = subprocess.run(["perf", "report", "-i", os.path.join(work, name + ".perf"), "--stdio", "-q", "-n",
                                 "--pid", str(traced_pids[name]),
                                 "--sort", settings.get("perf-sort", "dso,sym"), "--percent-limit", "0.7"],
                                capture_output=True, text=True)
        print("\n".join(report.stdout.splitlines()[:70]) or report.stderr[-2000:])
        report = subprocess.run(["perf", "report", "-i", os.path.join(work, name + ".perf"), "--stdio", "-q",
                                 "--sort", "comm,dso", "-n", "--percent-limit", "0.5"], capture_output=True, text=True)
        print(report.stdout)
    screen.close()
    sys.exit(0)

if counting:
    if swipes <= SMALL_SWIPES:
        livecheck.fail(f"callgrind: SWIPES must be more than {SMALL_SWIPES}")
    counts = {name: steady(name, "callgrind") for name in configs}
    calls = {name: steady(name, "strace") for name in configs}
    print(f"one-finger swipe -> command on a real touchscreen (QEMU VM; {swipes} swipes against {SMALL_SWIPES}, "
          f"{FRAMES} frames each, a frame every {frame_s * 1000:g} ms): per input frame, steady state")
    print(f"  {'':34s} {'instructions':>12s} {'ratio':>7s} {'syscalls':>9s} {'ratio':>7s}")
    for name in configs:
        print(f"  {labels[name]:34s} {counts[name]:12,.0f} {counts[name] / counts['lisgd']:6.2f}x "
              f"{calls[name]:9.2f} {calls[name] / calls['lisgd']:6.2f}x")
    if "daemon10" in configs and "daemon1" in configs:
        print(f"  {'daemon, 10 plugins against 1':34s} {counts['daemon10'] / counts['daemon1']:11.2f}x (instructions)")
    screen.close()
    sys.exit(0)

cpu = {k: [] for k in configs}
latency = {k: [] for k in configs}
for r in range(rounds):
    for name, command in configs.items():
        per_frame, lat = session(name, command)
        cpu[name].append(per_frame)
        latency[name].extend(lat)
        # Under icount what schedstat gives is instructions (1 ns each), not CPU time: said so.
        figure = (f"{per_frame:8,.0f} instructions/frame (user + kernel)" if "icount" in sys.argv[4:]
                  else f"{per_frame / 1000:7.1f} us/frame")
        print(f"  round {r + 1} {name:8s} {figure}, latency p50 "
              f"{statistics.median(lat) * 1000:.2f} ms", file=sys.stderr)


def p99(x):
    x = sorted(x)
    return x[min(len(x) - 1, round(0.99 * (len(x) - 1)))]


print(f"one-finger swipe -> command on a real touchscreen (QEMU VM, {swipes} swipes of {FRAMES} frames per run, "
      f"median of {rounds} interleaved runs; latencies of all {swipes * rounds} swipes)")
base_cpu = statistics.median(cpu["lisgd"])
base50, base99 = statistics.median(latency["lisgd"]), p99(latency["lisgd"])
# Under icount the VM's clock counts instructions (1 ns each): what schedstat gives is instructions
# executed, user and kernel, not CPU time, and the row says so.
measure = "instructions per frame (user + kernel)" if "icount" in sys.argv[4:] else "CPU per frame"
for name in configs:
    c, l50, l99 = statistics.median(cpu[name]), statistics.median(latency[name]), p99(latency[name])
    ratio = "" if name == "lisgd" else f"  {c / base_cpu:5.2f}x lisgd (target <= 1)"
    figure = f"{c:10,.0f}" if "icount" in sys.argv[4:] else f"{c / 1000:8.1f} us"
    print(f"  {labels[name] + ', ' + measure:70s} {figure}{ratio}")
    ratio = "" if name == "lisgd" else f"  {l50 / base50:5.2f}x / {l99 / base99:5.2f}x lisgd (target <= 1)"
    clock = ", icount clock" if "icount" in sys.argv[4:] else ""
    print(f"  {labels[name] + ', lift -> command p50/p99' + clock:70s} {l50 * 1000:6.2f} / {l99 * 1000:6.2f} ms{ratio}")
if "daemon10" in configs and "daemon1" in configs:
    d1, d10 = statistics.median(cpu["daemon1"]), statistics.median(cpu["daemon10"])
    print(f"  {'daemon, 10 plugins against 1, ' + measure:70s} {d10 / d1:8.2f}x (target < 3)")
if rounds > 1:
    # Each round's processes ran one after the other on the same machine: their ratios within a
    # round share its load, which the medians above do not pair (on TCG's clock rounds vary +-40 %).
    print(f"  {measure}, each round's ratio to that round's lisgd (median; rounds below 1):")
    for name in configs:
        if name != "lisgd":
            paired = [c / l for c, l in zip(cpu[name], cpu["lisgd"])]
            print(f"    {labels[name]:44s} {statistics.median(paired):5.2f}x  "
                  f"({sum(r < 1 for r in paired)} of {rounds}: {' '.join(f'{r:.2f}' for r in paired)})")
screen.close()
