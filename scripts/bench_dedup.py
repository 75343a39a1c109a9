#!/usr/bin/env python3
"""Time and peak memory of `cowrex dedup` on generated shingle files of growing size.

Usage: python3 scripts/bench_dedup.py [--lines 1000000,10000000,50000000] [--memory 256] [-j 2]

For each size it writes target/bench_dedup/N.shingles (texrex's 68-character lines, 100 per
document): random min-hashes, with every tenth document a near-duplicate of the one before
(80 of its 100 hashes shared, a smaller size), so exactly that many documents must be
blacklisted. It then runs `cowrex dedup --memory MIB -j J` once per file and prints a
Markdown table: wall and CPU seconds, peak RSS (of the cowrex process alone) and whether the
blacklist is exactly the planted copies. With a fixed --memory, peak RSS must stay flat as
the input grows: what does not fit is sorted on disk.
"""
import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "bench_dedup")

# Runs one command and reports its own resource use (a fresh process per measurement, so
# RUSAGE_CHILDREN covers that command only).
MEASURE = r"""
import resource, subprocess, sys, time
t = time.time()
r = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE)
wall = time.time() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(r.stderr.decode())
print(r.returncode, wall, u.ru_utime + u.ru_stime, u.ru_maxrss)
"""


def generate(path, lines):
    """Write `lines` shingle lines; return the ids of the planted near-duplicates."""
    rng = random.Random(lines)
    docs = lines // 100
    copies = set()
    with open(path, "w", buffering=1 << 20) as f:
        prev = None
        for d in range(docs):
            doc_id = "%036x" % d
            if d % 10 == 9 and prev is not None:
                hashes = prev[:80] + [rng.getrandbits(63) for _ in range(20)]
                size = 1000
                copies.add(doc_id)
            else:
                hashes = [rng.getrandbits(63) for _ in range(100)]
                size = 2000
            prev = hashes
            tail = " %s %010d\n" % (doc_id, size)
            f.write("".join("%020d%s" % (h, tail) for h in hashes))
    return copies


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", default="1000000,10000000,50000000")
    ap.add_argument("--memory", type=int, default=256, help="cowrex dedup --memory (MiB)")
    ap.add_argument("-j", type=int, default=2, help="cowrex dedup threads")
    a = ap.parse_args()
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    cowrex = os.path.join(ROOT, "target", "release", "cowrex")
    os.makedirs(OUT, exist_ok=True)
    rows = []
    for n in [int(x) for x in a.lines.split(",")]:
        path = os.path.join(OUT, "%d.shingles" % n)
        t = time.time()
        copies = generate(path, n)
        print("generated %s (%d lines) in %.0f s" % (path, n, time.time() - t), file=sys.stderr)
        bl = os.path.join(OUT, "%d.blacklist" % n)
        out = subprocess.run(
            [sys.executable, "-c", MEASURE, cowrex, "dedup", path, "-o", bl,
             "--memory", str(a.memory), "-j", str(a.j)],
            check=True, capture_output=True, text=True)
        sys.stderr.write(out.stderr)
        code, wall, cpu, rss = out.stdout.split()
        listed = set(open(bl).read().split())
        rows.append((n, os.path.getsize(path) / 1e6, float(wall), float(cpu), int(rss) / 1024,
                     n / float(wall) / 1e6, len(listed), listed == copies and code == "0"))
        os.remove(path)
    print()
    print("`cowrex dedup --memory %d -j %d`" % (a.memory, a.j))
    print()
    print("| shingle lines | input MB | wall s | CPU s | peak RSS MiB | million lines/s | blacklisted | exactly the planted copies |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| {:,} | {:.0f} | {:.1f} | {:.1f} | {:.0f} | {:.2f} | {:,} | {} |".format(*r[:7], "yes" if r[7] else "NO"))


if __name__ == "__main__":
    main()
