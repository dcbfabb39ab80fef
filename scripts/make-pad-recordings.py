#!/usr/bin/env python3
"""Writes the two synthetic touchpad recordings of examples/scenarios/pads/: the same session, in
millimetres, on two pads of 100 x 67 mm that report 12 and 30 units/mm (the second with a
negative axis minimum, as many real pads have).

    scripts/make-pad-recordings.py [DIR]      # default: examples/scenarios/pads

The session (times in seconds, positions in mm from the top-left corner), at 100 frames/s:
  0.0  three fingers swipe 40 mm left, lifting together          -> a workspace key
  1.0  two-finger tap (0.3 mm of jitter, 80 ms)                  -> right click
  2.0  three fingers swipe 30 mm up; the first lifts at 2.2, the
       other two rest until 3.46                                  -> decided at 2.2
  4.0  a 4 mm three-finger nudge                                  -> nothing
  5.0  a 6 mm two-finger scroll (200 ms)                          -> nothing
  6.0  one finger moves the pointer 50 mm left, then 30 mm down   -> nothing
  7.0  one finger rests for 1 s (a thumb on the pad)              -> nothing
  8.5  four fingers swipe 30 mm up                                -> a terminal
  9.5  three fingers rest for 0.8 s                               -> the window switcher
Positions are rounded to whole device units, so the two pads see slightly different numbers.
"""
import os
import sys

WIDTH_MM, HEIGHT_MM = 100.0, 67.0
PADS = [("desktop-pad12", 12, 0), ("desktop-pad30", 30, -1500)]

# (start time, [finger tracks]); a track is a list of (t offset, x mm, y mm) keyframes, from its
# down to its lift; positions between keyframes are interpolated at every frame.
def line(t0, t1, x0, y0, x1, y1):
    return [(t0, x0, y0), (t1, x1, y1)]

def fingers(xs, y, dx, dy, duration):
    return [line(0, duration, x, y, x + dx, y + dy) for x in xs]

SESSION = [
    (0.0, fingers([60, 70, 80], 30, -40, 0, 0.2)),
    (1.0, [[(0, 40, 40), (0.04, 40.3, 40.2), (0.08, 40.1, 40.3)],
           [(0, 55, 40), (0.04, 55.2, 39.8), (0.08, 55.3, 40.0)]]),
    (2.0, [line(0, 0.2, 40, 55, 40, 25)] + [line(0, 0.15, x, 55, x, 25) + [(1.46, x, 25)] for x in (50, 60)]),
    (4.0, fingers([40, 50, 60], 30, 4, 0, 0.1)),
    (5.0, fingers([45, 60], 20, 0, 6, 0.2)),
    (6.0, [[(0, 80, 20), (0.5, 30, 20), (0.8, 30, 50)]]),
    (7.0, [[(0, 50, 50), (1.0, 50, 50)]]),
    (8.5, fingers([30, 42, 54, 66], 55, 0, -30, 0.2)),
    (9.5, [line(0, 0.8, x, 40, x, 40) for x in (40, 50, 60)]),
]
STEP = 0.01
BASE = 1700000000.0  # absolute timestamps, as evemu-record writes them


def at(track, t):
    """The position of a finger at time t (offset), or None when it is not down."""
    if t < track[0][0] - 1e-9 or t > track[-1][0] + 1e-9:
        return None
    for (ta, xa, ya), (tb, xb, yb) in zip(track, track[1:]):
        if ta - 1e-9 <= t <= tb + 1e-9:
            f = 0 if tb == ta else (t - ta) / (tb - ta)
            return xa + (xb - xa) * f, ya + (yb - ya) * f
    return track[-1][1], track[-1][2]


def write(path, resolution, minimum):
    xmax = minimum + round(WIDTH_MM * resolution)
    ymin = minimum * 67 // 100
    ymax = ymin + round(HEIGHT_MM * resolution)
    out = [
        "# EVEMU 1.3",
        "# A synthetic touchpad of 100 x 67 mm at %d units/mm, written by scripts/make-pad-recordings.py" % resolution,
        "N: motionscript synthetic touchpad %d" % resolution,
        "I: 0018 0001 0001 0100",
        "P: 05 00 00 00 00 00 00 00",  # INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD: a clickpad
        "B: 00 0b 00 00 00 00 00 00 00",
        "B: 03 00 00 00 00 00 80 60 02",
        "A: 2f 0 4 0 0 0",
        "A: 35 %d %d 0 0 %d" % (minimum, xmax, resolution),
        "A: 36 %d %d 0 0 %d" % (ymin, ymax, resolution),
        "A: 39 0 65535 0 0 0",
    ]
    tracking = 100
    for start, tracks in SESSION:
        ends = [track[-1][0] for track in tracks]
        slots = {}  # finger index -> (slot, tracking id, last units)
        steps = int(round(max(ends) / STEP))
        for k in range(steps + 1):
            t = k * STEP
            stamp = "%.6f" % (BASE + start + t)
            events = []
            for i, track in enumerate(tracks):
                p = at(track, t)
                if p is None:
                    continue
                units = (minimum + round(p[0] * resolution), ymin + round(p[1] * resolution))
                lifting = abs(t - track[-1][0]) < 1e-9
                if i not in slots:
                    tracking += 1
                    slots[i] = (len(slots), tracking, None)
                slot, tid, last = slots[i]
                changes = []
                if last is None:
                    changes.append((0x39, tid))
                if units != last:
                    changes += [(0x35, units[0]), (0x36, units[1])]
                if lifting and last is not None:
                    changes = [(0x39, -1)]
                elif lifting:
                    changes.append(None)  # down and up in one frame never happens here
                if changes:
                    events.append((0x2f, slot))
                    events += [c for c in changes if c is not None]
                slots[i] = (slot, tid, units)
            if events:
                out += ["E: %s 0003 %04x %04d" % (stamp, code, value) for code, value in events]
                out.append("E: %s 0000 0000 0000" % stamp)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


folder = sys.argv[1] if len(sys.argv) > 1 else "examples/scenarios/pads"
os.makedirs(folder, exist_ok=True)
for name, resolution, minimum in PADS:
    write(os.path.join(folder, name + ".evemu"), resolution, minimum)
