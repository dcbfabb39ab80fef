#!/usr/bin/env python3
"""Writes a benchmark recording of a two-finger drag on a multi-touch protocol-B touchscreen.

    scripts/bench-events.py FORMAT PATH [MEGABYTES]     FORMAT: evemu, libinput or raw

Every frame is what such a device sends while two fingers move: for each slot ABS_MT_SLOT,
ABS_MT_POSITION_X/Y; then the single-touch emulation ABS_X/Y, MSC_TIMESTAMP and SYN_REPORT, at
125 Hz. The text formats carry the comments evemu-record and libinput record write after each
event. Frames are written until the file holds at least MEGABYTES (default 100) million bytes;
the last line of stdout is "events N frames F bytes B".
"""
import struct
import sys

fmt, path = sys.argv[1], sys.argv[2]
target = int(float(sys.argv[3]) * 1e6) if len(sys.argv) > 3 else 100_000_000

NAMES = {
    (0, 0): ("EV_SYN", "SYN_REPORT"),
    (1, 330): ("EV_KEY", "BTN_TOUCH"),
    (3, 0): ("EV_ABS", "ABS_X"),
    (3, 1): ("EV_ABS", "ABS_Y"),
    (3, 47): ("EV_ABS", "ABS_MT_SLOT"),
    (3, 53): ("EV_ABS", "ABS_MT_POSITION_X"),
    (3, 54): ("EV_ABS", "ABS_MT_POSITION_Y"),
    (3, 57): ("EV_ABS", "ABS_MT_TRACKING_ID"),
    (4, 5): ("EV_MSC", "MSC_TIMESTAMP"),
}
TYPE_NAMES = {0: "EV_SYN", 1: "EV_KEY", 3: "EV_ABS", 4: "EV_MSC"}
ABSINFO = {0: (0, 4095, 0, 0, 12), 1: (0, 4095, 0, 0, 12), 47: (0, 9, 0, 0, 0),
           53: (0, 4095, 0, 0, 12), 54: (0, 4095, 0, 0, 12), 57: (0, 65535, 0, 0, 0)}
CODES = {0: [0, 1, 2, 3, 4], 1: [330], 3: sorted(ABSINFO), 4: [5]}
START_SEC = 1_700_000_000


def position(frame, finger):
    """Two fingers sweeping back and forth across the screen, 200 units apart."""
    phase = frame % 2000
    x = 500 + (phase if phase < 1000 else 2000 - phase) * 3
    return x, 1000 + finger * 200 + (frame % 7)


def frames():
    """(usec since start, [(type, code, value)]) for each frame: down, moves forever, up."""
    n = 0
    yield 0, [(3, 47, 0), (3, 57, 100), (3, 53, 500), (3, 54, 1000),
              (3, 47, 1), (3, 57, 101), (3, 53, 500), (3, 54, 1200),
              (1, 330, 1), (3, 0, 500), (3, 1, 1000), (4, 5, 0), (0, 0, 0)]
    while True:
        n += 1
        events = []
        for finger in (0, 1):
            x, y = position(n, finger)
            events += [(3, 47, finger), (3, 53, x), (3, 54, y)]
        x, y = position(n, 0)
        events += [(3, 0, x), (3, 1, y), (4, 5, (n * 8000) % 2**31), (0, 0, 0)]
        yield n * 8000, events


def last_frame(usec):
    return usec, [(3, 47, 0), (3, 57, -1), (3, 47, 1), (3, 57, -1), (1, 330, 0), (4, 5, usec % 2**31), (0, 0, 0)]


def bitmap(codes):
    data = bytearray(max(codes) // 8 + 1)
    for c in codes:
        data[c // 8] |= 1 << (c % 8)
    return data


def evemu_header():
    lines = ["# EVEMU 1.3", "# Kernel: 6.1.0", "# Input device name: \"Bench Touchscreen\"",
             "# Input device ID: bus 0x03 vendor 0x4f3 product 0x2a1c version 0x110"]
    lines += ["N: Bench Touchscreen", "I: 0003 04f3 2a1c 0110", "P: 02 00 00 00 00 00 00 00"]
    for t, codes in CODES.items():
        data = bitmap(codes)
        for i in range(0, len(data), 8):
            lines.append(f"B: {t:02x} " + " ".join(f"{b:02x}" for b in data[i:i + 8]))
    for code, (lo, hi, fuzz, flat, res) in ABSINFO.items():
        lines.append(f"A: {code:02x} {lo} {hi} {fuzz} {flat} {res}")
    lines += ["################################", "#      Waiting for events      #", "################################"]
    return "\n".join(lines) + "\n"


def evemu_frame(usec, events):
    sec, us = divmod(usec, 1_000_000)
    out = []
    for t, c, v in events:
        tn, cn = NAMES[(t, c)]
        if t == 0:
            out.append(f"E: {sec}.{us:06d} 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +8ms\n")
        else:
            out.append(f"E: {sec}.{us:06d} {t:04x} {c:04x} {v:04d}\t# {tn} / {cn:<20s} {v}\n")
    return "".join(out)


def libinput_header():
    lines = ["# libinput record", "version: 1", "ndevices: 1", "libinput:", "  version: \"1.23.0\"",
             "  git: \"unknown\"", "system:", "  os: \"debian:12\"", "  kernel: \"6.1.0\"",
             "  dmi: \"dmi:bvnBench:\"", "devices:", "- node: /dev/input/event5", "  evdev:",
             "    # Name: Bench Touchscreen", "    name: \"Bench Touchscreen\"",
             "    id: [3, 1267, 10780, 272]", "    codes:"]
    for t, codes in CODES.items():
        lines.append(f"      {t}: [{', '.join(map(str, codes))}] # {TYPE_NAMES[t]}")
    lines.append("    absinfo:")
    for code, info in ABSINFO.items():
        lines.append(f"      {code}: [{', '.join(map(str, info))}]")
    lines += ["    properties: [1]", "  udev:", "    properties:", "    - ID_INPUT=1",
              "    - ID_INPUT_TOUCHSCREEN=1", "  quirks:", "  events:"]
    return "\n".join(lines) + "\n"


def libinput_frame(usec, events):
    sec, us = divmod(usec, 1_000_000)
    out = ["  - evdev:\n"]
    for t, c, v in events:
        tn, cn = NAMES[(t, c)]
        if t == 0:
            out.append(f"    - [{sec:3d}, {us:6d}, {t:2d}, {c:3d}, {v:7d}] # ------------ SYN_REPORT (0) ---------- +8ms\n")
        else:
            out.append(f"    - [{sec:3d}, {us:6d}, {t:2d}, {c:3d}, {v:7d}] # {tn} / {cn:<20s} {v:6d}\n")
    return "".join(out)


RECORD = struct.Struct("<qqHHi")


def raw_frame(usec, events):
    sec, us = divmod(usec, 1_000_000)
    return b"".join(RECORD.pack(START_SEC + sec, us, t, c, v) for t, c, v in events)


header, frame_text, mode = {
    "evemu": (evemu_header(), evemu_frame, "w"),
    "libinput": (libinput_header(), libinput_frame, "w"),
    "raw": (b"", raw_frame, "wb"),
}[fmt]
size = len(header)
count = nframes = 0
with open(path, mode) as f:
    f.write(header)
    batch = []
    usec = 0
    for usec, events in frames():
        chunk = frame_text(usec, events)
        batch.append(chunk)
        size += len(chunk)
        count += len(events)
        nframes += 1
        if len(batch) >= 5000:
            f.write(("" if mode == "w" else b"").join(batch))
            batch = []
        if size >= target:
            break
    chunk = frame_text(*last_frame(usec + 8000))
    batch.append(chunk)
    count += 7
    nframes += 1
    size += len(chunk)
    f.write(("" if mode == "w" else b"").join(batch))
print(f"events {count} frames {nframes} bytes {size}")
