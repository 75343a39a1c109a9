#!/usr/bin/env python3
"""Time and peak memory of `cowrex dedup` (and of the Spark job) on generated shingle files of growing size.

Usage: python3 scripts/bench/bench_dedup.py [--lines 1000000,10000000,50000000] [--memory 256] [-j 2]
                                      [--spark]

For each size it writes target/bench_dedup/N/ (8 gzipped shingle files of texrex's
68-character lines, 100 per document) with `scripts/spark/planted_shingles.py`: random
min-hashes, one document in ten copied with 0 to 20 of its hashes shared, stock-phrase hashes
that the redundancy cap ignores, so that the blacklist is known. It then runs `cowrex dedup
--memory MIB -j J` once per size and prints a Markdown table: wall and CPU seconds, peak RSS
(of the cowrex process alone) and whether the blacklist is exactly the planted copies. With a
fixed --memory, peak RSS must stay flat as the input grows: what does not fit is sorted on
disk. With --spark, `scripts/spark/cowrex_dedup_spark.py` runs on the same files in Spark's
local mode (PyPI's pyspark, `local[J]`), and the table says whether its blacklist is
byte-identical to cowrex's (peak RSS is then the driver's and its Python workers'); a second
table gives each Spark stage's shuffle (records and bytes written, from Spark's event log),
from which the shuffles of a larger crawl scale.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "target", "bench_dedup")
sys.path.insert(0, os.path.join(ROOT, "scripts", "spark"))
from planted_shingles import write_planted  # noqa: E402

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


def measure(cmd):
    """(exit code, wall s, CPU s, peak RSS MiB) of one command, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", MEASURE] + cmd, check=True, capture_output=True, text=True)
    sys.stderr.write(out.stderr[-2000:])
    # The last line is MEASURE's; the command's own output comes before it.
    code, wall, cpu, rss = out.stdout.splitlines()[-1].split()
    return code, float(wall), float(cpu), int(rss) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", default="1000000,10000000,50000000")
    ap.add_argument("--memory", type=int, default=256, help="cowrex dedup --memory (MiB)")
    ap.add_argument("-j", type=int, default=2, help="cowrex dedup threads (and Spark's local[J])")
    ap.add_argument("--spark", action="store_true", help="also run the Spark job in local mode")
    a = ap.parse_args()
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    cowrex = os.path.join(ROOT, "target", "release", "cowrex")
    if a.spark:
        import pyspark
        submit = [os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit"),
                  "--master", "local[%d]" % a.j, "--conf", "spark.ui.enabled=false",
                  "--conf", "spark.driver.host=127.0.0.1", "--driver-memory", "2g",
                  "--conf", "spark.eventLog.enabled=true", "--conf", "spark.eventLog.compress=false",
                  "--conf", "spark.eventLog.rolling.enabled=false",
                  "--conf", "spark.eventLog.dir=file://" + os.path.join(OUT, "eventlog"),
                  os.path.join(ROOT, "scripts", "spark", "cowrex_dedup_spark.py")]
    os.makedirs(os.path.join(OUT, "eventlog"), exist_ok=True)
    rows, shuffles = [], []
    for n in [int(x) for x in a.lines.split(",")]:
        path = os.path.join(OUT, str(n))
        shutil.rmtree(path, ignore_errors=True)
        t = time.time()
        written, _, copies = write_planted(path, n)
        size = sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path)) / 1e6
        print("generated %s (%d lines) in %.0f s" % (path, written, time.time() - t), file=sys.stderr)
        bl = os.path.join(OUT, "%d.blacklist" % n)
        code, wall, cpu, rss = measure([cowrex, "dedup", path, "-o", bl, "--memory", str(a.memory), "-j", str(a.j)])
        listed = open(bl).read().split()
        rows.append(("cowrex dedup", written, size, wall, cpu, rss, written / wall / 1e6, len(listed),
                     "yes" if listed == copies and code == "0" else "NO"))
        if a.spark:
            spark_bl = os.path.join(OUT, "%d.spark.blacklist" % n)
            code, wall, cpu, rss = measure(submit + [path, spark_bl])
            same = code == "0" and open(spark_bl, "rb").read() == open(bl, "rb").read()
            rows.append(("Spark local[%d]" % a.j, written, size, wall, cpu, rss, written / wall / 1e6,
                         len(open(spark_bl).read().split()), "byte-identical" if same else "NO"))
            shuffles += [(written,) + s for s in stage_shuffles(os.path.join(OUT, "eventlog"))]
        shutil.rmtree(path)
    print()
    print("`cowrex dedup --memory %d -j %d`%s" % (a.memory, a.j, ", Spark local[%d]" % a.j if a.spark else ""))
    print()
    print("| tool | shingle lines | input MB (gzip) | wall s | CPU s | peak RSS MiB | million lines/s | blacklisted | the planted copies |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| {} | {:,} | {:.0f} | {:.1f} | {:.1f} | {:.0f} | {:.2f} | {:,} | {} |".format(*r))
    if shuffles:
        print()
        # PySpark shuffles pickled batches, so its record counts say little; bytes per input
        # line scale to a larger crawl.
        print("| shingle lines | Spark stage (the shuffle it writes) | shuffle MB written | bytes per shingle line |")
        print("|---|---|---|---|")
        for n, name, _, nbytes in shuffles:
            print("| {:,} | {} | {:.1f} | {:.2f} |".format(n, name, nbytes / 1e6, nbytes / n))


def stage_shuffles(eventlog):
    """(stage name, shuffle records written, shuffle bytes written, as Spark compresses them)
    of each stage that wrote a shuffle, from the newest event log in `eventlog` (then removed)."""
    import json
    newest = max((os.path.join(eventlog, f) for f in os.listdir(eventlog)), key=os.path.getmtime)
    names, records, nbytes = {}, {}, {}
    with open(newest) as f:
        for e in map(json.loads, f):
            if e["Event"] == "SparkListenerStageCompleted":
                info = e["Stage Info"]
                names[info["Stage ID"]] = info["Stage Name"].split(" at ")[0]
            elif e["Event"] == "SparkListenerTaskEnd" and e.get("Task Metrics"):
                w = e["Task Metrics"].get("Shuffle Write Metrics", {})
                stage = e["Stage ID"]
                records[stage] = records.get(stage, 0) + w.get("Shuffle Records Written", 0)
                nbytes[stage] = nbytes.get(stage, 0) + w.get("Shuffle Bytes Written", 0)
    os.remove(newest)
    return [(names.get(st, str(st)), records[st], nbytes[st]) for st in sorted(records) if nbytes[st]]


if __name__ == "__main__":
    main()
