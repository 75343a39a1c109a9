#!/usr/bin/env python3
"""How `cowrex inspect` and `cowrex report` scale: a page of 100,000 blocks and a run of
1,000,000 documents, each written and then opened in headless Chromium.

Usage: python3 scripts/bench/inspect_scale.py [--cowrex PATH] [--docs N] [--blocks N]

Writes its inputs under target/scale/: a page of --blocks paragraphs (inspected with
--max-blocks and --max-work raised so that segmentation keeps them all; the inspector draws
the first 20,000), and a synthetic run of --docs documents over 100 inputs (JSONL corpus files
of three blocks per document and their S.stats.json, as `cowrex process` writes them). Prints
for each: wall seconds and peak RSS of cowrex, the HTML file's size, and the wall seconds of
Chromium loading it and drawing a screenshot (Debian's chromium, headless), less those of an
empty page (Chromium's own start-up).
"""

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "target", "scale")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,800"]


def timed(cmd):
    """Wall seconds and the peak RSS (MiB) of a command's process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if status != 0:
        sys.exit(f"inspect_scale.py: {' '.join(cmd)} failed")
    return wall, usage.ru_maxrss / 1024


def browse(path):
    """Wall seconds of Chromium opening a file and drawing a screenshot (median of 3)."""
    shot = os.path.join(OUT, "shot.png")
    times = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(["chromium", *FLAGS, f"--user-data-dir={OUT}/profile", f"--screenshot={shot}",
                        "file://" + path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return sorted(times)[1]


def synthetic_run(path, docs, inputs=100):
    """A run's output directory of `docs` documents: JSONL corpus files and their stats."""
    os.makedirs(path, exist_ok=True)
    rng = random.Random(1)
    per = docs // inputs
    for i in range(inputs):
        stem = os.path.join(path, f"part-{i:04d}")
        with gzip.open(stem + ".jsonl.gz", "wt", compresslevel=1) as f:
            for d in range(per):
                blocks = [{"idx": k, "bpv": round(rng.random(), 3), "text": "x"} for k in range(3)]
                f.write(json.dumps({"id": f"{i}-{d}", "host": f"h{rng.randrange(200000)}.example",
                                    "bdv": round(rng.random() * 50, 2), "nbc": rng.randrange(1, 100000),
                                    "nbcprop": round(rng.random(), 3), "blocks": blocks}) + "\n")
        stats = {"input": f"part-{i:04d}.warc.gz", "records": 3 * per, "documents": per,
                 "fates": {"written": per, "skipped.not_response": 2 * per},
                 "fate_bytes": {"written": 20000 * per, "skipped.not_response": 500 * per},
                 "languages": {"eng": per}, "duplicates": 0, "stream_error_bytes": 0,
                 "bytes": {"input": 8000 * per, "records": 20500 * per}, "time_ms": {"total": per}}
        with open(stem + ".stats.json", "w") as f:
            json.dump(stats, f)
        open(stem + ".done.json", "w").write("{}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cowrex", default=os.path.join(ROOT, "target", "release", "cowrex"))
    ap.add_argument("--docs", type=int, default=1_000_000)
    ap.add_argument("--blocks", type=int, default=100_000)
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    empty = os.path.join(OUT, "empty.html")
    open(empty, "w").write("<!DOCTYPE html><title>empty</title>")
    base = browse(empty)

    page = os.path.join(OUT, "page.html")
    with open(page, "w") as f:
        f.write("<html><body>" + "".join(f"<p>Paragraph {i} of a very long page.</p>\n"
                                         for i in range(args.blocks)) + "</body></html>")
    inspected = os.path.join(OUT, "page-inspect.html")
    wall, rss = timed([args.cowrex, "inspect", "--max-blocks", str(args.blocks + 10),
                       "--max-work", "1000000000", page, "-o", inspected])
    print(f"inspect, a page of {args.blocks:,} blocks: cowrex {wall:.2f} s, peak RSS {rss:.0f} MiB; "
          f"HTML {os.path.getsize(inspected) / 1e6:.1f} MB; Chromium {browse(inspected) - base:.2f} s "
          f"beyond an empty page's {base:.2f} s")

    run = os.path.join(OUT, f"run-{args.docs}")
    if not os.path.exists(os.path.join(run, "part-0099.done.json")):
        print(f"writing a synthetic run of {args.docs:,} documents ...", file=sys.stderr)
        synthetic_run(run, args.docs)
    report = os.path.join(OUT, "report.html")
    wall, rss = timed([args.cowrex, "report", run, "-o", report])
    print(f"report, a run of {args.docs:,} documents in 100 inputs: cowrex {wall:.2f} s, peak RSS "
          f"{rss:.0f} MiB; HTML {os.path.getsize(report) / 1e3:.0f} kB; Chromium "
          f"{browse(report) - base:.2f} s beyond an empty page's")


if __name__ == "__main__":
    main()
