#!/usr/bin/env python3
"""Writes the recordings of examples/scenarios/proxy/: the failures other gesture daemons shipped
when they took touches away from the desktop, on a synthetic clickpad (100 x 67 mm, 12 units/mm,
5 slots, BTN_LEFT, BTN_TOOL_FINGER..QUINTTAP, MSC_TIMESTAMP, single-touch emulation), as the kernel
would report them: only changed values, a frame every 10 ms while a finger is down.

    scripts/make-proxy-recordings.py [DIR]      # default: examples/scenarios/proxy

Each session is a list of fingers (down time, up time, keyframes (t, x mm, y mm)), button
changes (t, value) and an optional SYN_DROPPED span (t_from, t_to): the frames in it are lost,
the kernel's marker written in their place.
"""
import os
import sys

RES = 12
STEP = 0.01
BASE = 1700000000.0
KEYS = {"BTN_LEFT": 0x110, "BTN_TOOL_FINGER": 0x145, "BTN_TOOL_QUINTTAP": 0x148, "BTN_TOUCH": 0x14a,
        "BTN_TOOL_DOUBLETAP": 0x14d, "BTN_TOOL_TRIPLETAP": 0x14e, "BTN_TOOL_QUADTAP": 0x14f}
TOOLS = [None, 0x145, 0x14d, 0x14e, 0x14f, 0x148]


def finger(t0, t1, *keys):
    """A finger down at t0, up at t1, through keyframes (t offset from t0, x mm, y mm)."""
    return (t0, t1, list(keys))


def still(t0, t1, x, y):
    return finger(t0, t1, (0, x, y))


def moving(t0, t1, x0, y0, x1, y1):
    return finger(t0, t1, (0, x0, y0), (t1 - t0, x1, y1))


SESSIONS = {
    # Four fingers swipe up (the desktop's gesture: no consumer for 4); at the tail they lift
    # one by one, 3 fingers left for a frame: a 3-finger consumer must not take that tail.
    "phantom-click-4-finger-tail": dict(fingers=[
        moving(0.00, 0.25, 30, 55, 30, 25), moving(0.01, 0.26, 42, 55, 42, 25),
        moving(0.02, 0.27, 54, 55, 54, 25), moving(0.03, 0.28, 66, 55, 66, 25)]),
    # A 3-finger swipe left, fingers landing 10 ms apart and lifting 20 ms apart: consumed, and
    # nothing of it (no 2-finger tap from the last two fingers) reaches the desktop.
    "staggered-lifts": dict(fingers=[
        moving(0.00, 0.20, 60, 30, 20, 30), moving(0.01, 0.22, 70, 30, 30, 30),
        moving(0.02, 0.24, 80, 30, 40, 30)]),
    # Three fingers move right (a 3-finger consumer waits), then a 4th lands at 0.08: the
    # consumer fails, the held frames go to the desktop in order, and the rest of the touch.
    "late-fourth-finger": dict(fingers=[
        moving(0.00, 0.30, 20, 30, 60, 30), moving(0.00, 0.30, 30, 30, 70, 30),
        moving(0.00, 0.30, 40, 30, 80, 30), moving(0.08, 0.30, 50, 45, 80, 45)]),
    # One finger moves the pointer from 0 to 0.3; the proxy takes the pad over at 0.05 (the
    # scenario says `-- proxy: 0.05`): that touch stays the desktop's; the next one is the clone's.
    "grab-while-finger-down": dict(fingers=[
        moving(0.00, 0.30, 20, 30, 60, 40), moving(0.50, 0.60, 50, 30, 60, 30)]),
    # One finger presses the clickpad; the kernel drops events at 0.15 (the button's release
    # and the lift are lost); a new touch at 0.5.
    "syn-dropped-mid-touch": dict(fingers=[
        moving(0.00, 0.30, 50, 50, 60, 50), moving(0.50, 0.60, 30, 30, 40, 30)],
        buttons=[(0.10, 1), (0.25, 0)], dropped=(0.15, 0.40)),
    # A 2-finger scroll down 20 mm under a 2-finger swipe-left consumer (passed once it has gone
    # 5 mm the other way), then a 2-finger swipe left (consumed: no horizontal scroll).
    "two-finger-swipe-vs-scroll": dict(fingers=[
        moving(0.00, 0.30, 40, 20, 40, 40), moving(0.00, 0.30, 55, 20, 55, 40),
        moving(1.00, 1.20, 70, 30, 30, 30), moving(1.00, 1.20, 70, 45, 30, 45)]),
    # A thumb rests at the bottom for 0.6 s (held 2 frames at most, then passed); three fingers
    # swipe above it: four fingers down, the 3-finger consumer fails, the desktop gets them.
    "resting-thumb": dict(fingers=[
        still(0.00, 0.60, 50, 62), moving(0.20, 0.45, 30, 30, 30, 10),
        moving(0.20, 0.45, 42, 30, 42, 10), moving(0.20, 0.45, 54, 30, 54, 10)]),
    # examples/three-finger-drag.lua: three fingers drag 30 mm right and 10 mm down (consumed:
    # the script presses, moves and releases the button), then one finger moves the pointer.
    "three-finger-drag": dict(fingers=[
        moving(0.00, 0.30, 30, 30, 60, 40), moving(0.00, 0.30, 42, 30, 72, 40),
        moving(0.00, 0.30, 54, 30, 84, 40), moving(0.60, 0.80, 50, 50, 40, 45)]),
    # examples/desktop-swipes.lua: a 3-finger swipe left (taken from the desktop), a 4 mm
    # 3-finger nudge (no swipe: the desktop gets it at the lift), a 4-finger swipe (the desktop's).
    "desktop-swipes": dict(fingers=[
        moving(0.00, 0.20, 70, 30, 30, 30), moving(0.00, 0.20, 80, 30, 40, 30), moving(0.00, 0.20, 90, 30, 50, 30),
        moving(1.00, 1.10, 40, 30, 44, 30), moving(1.00, 1.10, 50, 30, 54, 30), moving(1.00, 1.10, 60, 30, 64, 30),
        moving(2.00, 2.20, 30, 55, 30, 25), moving(2.00, 2.20, 42, 55, 42, 25), moving(2.00, 2.20, 54, 55, 54, 25),
        moving(2.00, 2.20, 66, 55, 66, 25)]),
}


def position(f, t):
    t0, t1, keys = f
    if t < t0 - 1e-9 or t > t1 + 1e-9:
        return None
    off = t - t0
    for (ta, xa, ya), (tb, xb, yb) in zip(keys, keys[1:]):
        if ta - 1e-9 <= off <= tb + 1e-9:
            k = 0 if tb == ta else (off - ta) / (tb - ta)
            return xa + (xb - xa) * k, ya + (yb - ya) * k
    return keys[-1][1], keys[-1][2]


def bitmap(codes, nbytes):
    out = [0] * nbytes
    for c in codes:
        out[c // 8] |= 1 << (c % 8)
    return out


def header(name):
    lines = ["# EVEMU 1.3",
             "# A synthetic clickpad of 100 x 67 mm at 12 units/mm, written by scripts/make-proxy-recordings.py",
             "N: motionscript synthetic clickpad",
             "I: 0018 06cb 7e7e 0100",
             "P: 05 00 00 00 00 00 00 00"]
    lines.append("B: 00 " + " ".join("%02x" % b for b in bitmap([0, 1, 3, 4], 8)))
    keys = bitmap(KEYS.values(), 96)
    for i in range(0, 96, 8):
        lines.append("B: 01 " + " ".join("%02x" % b for b in keys[i:i + 8]))
    lines.append("B: 03 " + " ".join("%02x" % b for b in bitmap([0, 1, 0x2f, 0x35, 0x36, 0x39], 8)))
    lines.append("B: 04 " + " ".join("%02x" % b for b in bitmap([5], 8)))
    lines += ["A: 00 0 1200 0 0 12", "A: 01 0 804 0 0 12", "A: 2f 0 4 0 0 0",
              "A: 35 0 1200 0 0 12", "A: 36 0 804 0 0 12", "A: 39 0 65535 0 0 0"]
    return lines


def write(path, session):
    fingers = session["fingers"]
    buttons = dict(session.get("buttons", []))
    dropped = session.get("dropped")
    end = max(f[1] for f in fingers)
    out = header(os.path.basename(path))
    slot_of = {}      # finger -> slot
    last = {}         # finger -> (x, y) units
    free = list(range(5))
    cur_slot = 0
    keys = {c: 0 for c in KEYS.values()}
    st = None
    tracking = 300
    wrote_drop = False
    for k in range(int(round(end / STEP)) + 1):
        t = round(k * STEP, 6)
        ev = []
        # Fingers: lifts first, then downs and moves, in finger order.
        down = []
        for i, f in enumerate(fingers):
            p = position(f, t)
            lifting = i in slot_of and abs(t - f[1]) < 1e-9
            if i in slot_of and (p is None or lifting):
                s = slot_of.pop(i)
                if s != cur_slot:
                    ev.append((3, 0x2f, s)); cur_slot = s
                ev.append((3, 0x39, -1))
                free.append(s); free.sort()
                last.pop(i)
                continue
            if p is None:
                continue
            u = (round(p[0] * RES), round(p[1] * RES))
            if i not in slot_of:
                s = free.pop(0)
                slot_of[i] = s
                tracking += 1
                if s != cur_slot:
                    ev.append((3, 0x2f, s)); cur_slot = s
                ev += [(3, 0x39, tracking), (3, 0x35, u[0]), (3, 0x36, u[1])]
                last[i] = u
            elif u != last[i]:
                s = slot_of[i]
                if s != cur_slot:
                    ev.append((3, 0x2f, s)); cur_slot = s
                if u[0] != last[i][0]: ev.append((3, 0x35, u[0]))
                if u[1] != last[i][1]: ev.append((3, 0x36, u[1]))
                last[i] = u
        n = len(slot_of)
        want = {c: 0 for c in KEYS.values() if c != 0x110}
        if n: want[0x14a] = 1; want[TOOLS[min(n, 5)]] = 1
        for c in sorted(want, key=lambda c: (want[c], c)):
            if keys[c] != want[c]:
                ev.append((1, c, want[c])); keys[c] = want[c]
        if t in buttons and keys[0x110] != buttons[t]:
            ev.append((1, 0x110, buttons[t])); keys[0x110] = buttons[t]
        # Single-touch emulation: the oldest finger's position.
        if slot_of:
            first = min(slot_of)
            if st != last[first]:
                if st is None or st[0] != last[first][0]: ev.append((3, 0, last[first][0]))
                if st is None or st[1] != last[first][1]: ev.append((3, 1, last[first][1]))
                st = last[first]
        if not ev and not slot_of:
            continue
        ev.append((4, 5, int(round(t * 1e6)) & 0x7fffffff))
        stamp = "%.6f" % (BASE + t)
        if dropped and dropped[0] - 1e-9 <= t < dropped[1] - 1e-9:
            if not wrote_drop:
                out.append("E: %s 0000 0003 0000" % stamp)
                out.append("E: %s 0000 0000 0000" % stamp)
                wrote_drop = True
            continue
        for type_, code, value in ev:
            v = "%04d" % value if value >= 0 else "-%03d" % -value
            out.append("E: %s %04x %04x %s" % (stamp, type_, code, v))
        out.append("E: %s 0000 0000 0000" % stamp)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


folder = sys.argv[1] if len(sys.argv) > 1 else "examples/scenarios/proxy"
os.makedirs(folder, exist_ok=True)
for name, session in SESSIONS.items():
    write(os.path.join(folder, name + ".evemu"), session)
