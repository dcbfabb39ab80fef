#!/usr/bin/python3
"""Runs the live checks inside the test VM (as root, with /dev/uinput): every `NN-name.py` beside
this file, in name order, each in its own process. A check passes with exit 0, is skipped with exit
77 (it says why), and fails otherwise. Arguments: words; only checks whose file name contains one
of them run. Exit 1 when a check failed or none ran."""
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
checks = sorted(f for f in os.listdir(here) if f[:2].isdigit() and f.endswith(".py"))
words = sys.argv[1:]
if words:
    checks = [c for c in checks if any(w in c for w in words)]
if not checks:
    print("no live check matches", words)
    sys.exit(1)

failed, skipped = [], []
for check in checks:
    began = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, os.path.join(here, check)], cwd=here,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=240)
        out, code = proc.stdout.decode(errors="replace"), proc.returncode
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b"").decode(errors="replace") + "\n(hung: killed after 240 s)", -1
    took = time.monotonic() - began
    verdict = "PASS" if code == 0 else "SKIP" if code == 77 else "FAIL"
    print(f"{verdict} {check} ({took:.1f} s)")
    if verdict != "PASS" or os.environ.get("LIVE_VERBOSE"):
        for line in out.rstrip().splitlines():
            print("    " + line)
    if verdict == "FAIL":
        failed.append(check)
    elif verdict == "SKIP":
        skipped.append(check)
    sys.stdout.flush()

print(f"{len(checks) - len(failed) - len(skipped)} passed, {len(failed)} failed, {len(skipped)} skipped")
sys.exit(1 if failed else 0)
