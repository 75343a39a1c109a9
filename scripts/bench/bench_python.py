#!/usr/bin/env python3
"""Python benchmark: the cowrex package against the extractors a Python user would pick.

In one Python process, on the same pages (every `--step`-th page of ../shared/data/pages, as
bytes for cowrex and as str for the others), in turns (`--repeat` rounds, each tool once per
round, median CPU seconds):

  * cowrex.Extractor().extract(html)          (every scorer on, as the CLI)
  * trafilatura.extract(html)
  * rs_trafilatura.extract(html)
  * resiliparse extract_plain_text(html, main_content=True)

and, on the same rounds, `cowrex process -j1` on a WARC of those pages (its CPU per document,
the CLI's figure that the package is compared with). Then:

  * a thread pool (1, 2, 4 threads) sharing one Extractor over the pages: wall-clock speed-up;
  * cowrex.read_warc(WARC, threads=1) against fastwarc + resiliparse on the bench WARC of
    scripts/bench/bench.py (all pages), CPU seconds of the whole iteration, median of the rounds.

The package and the peers are installed into target/bench/python-venv on first use (the
package from ./python, rebuilt on every run).

Usage: python3 scripts/bench/bench_python.py [--repeat N] [--step K]
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the bench WARC and CPU measurement of scripts/bench/bench.py)

VENV = os.path.join(bench.OUT, "python-venv")

CHILD = r'''
import gzip, glob, json, os, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
import cowrex, trafilatura, rs_trafilatura
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import detect_encoding, bytes_to_str
from fastwarc.warc import ArchiveIterator, WarcRecordType

args = json.loads(sys.argv[1])
pages = []
for f in sorted(glob.glob(os.path.join(args["pages"], "*", "*.html*")))[:: args["step"]]:
    raw = open(f, "rb").read()
    pages.append(gzip.decompress(raw) if f.endswith(".gz") else raw)
texts = [bytes_to_str(p, detect_encoding(p)) for p in pages]
extractor = cowrex.Extractor()

def cli():
    cmd = [args["cowrex"], "process", "--no-progress", "--force", "-j1", args["sample_warc"], "-o", args["out"]]
    t0 = os.times()
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    t1 = os.times()
    return (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)

def timed(f):
    t = time.process_time()
    f()
    return time.process_time() - t

tools = {
    "cowrex.extract": lambda: [extractor.extract(p) for p in pages],
    "cowrex process -j1 (CLI)": None,
    "trafilatura.extract": lambda: [trafilatura.extract(t) for t in texts],
    "rs_trafilatura.extract": lambda: [rs_trafilatura.extract(t) for t in texts],
    "resiliparse extract_plain_text(main_content=True)": lambda: [extract_plain_text(t, main_content=True) for t in texts],
}
runs = {k: [] for k in tools}
for _ in range(args["repeat"]):
    for name, f in tools.items():
        runs[name].append(cli() if f is None else timed(f))
n = len(pages)
result = {"pages": n, "per_page_ms": {k: 1000 * statistics.median(v) / n for k, v in runs.items()},
          "runs": runs}

def pool(threads):
    with ThreadPoolExecutor(threads) as ex:
        t = time.perf_counter()
        list(ex.map(extractor.extract, pages))
        return time.perf_counter() - t

walls = {k: statistics.median(pool(k) for _ in range(args["repeat"])) for k in (1, 2, 4)}
result["pool_speedup"] = {str(k): walls[1] / w for k, w in walls.items()}

def read_warc():
    docs = 0
    for d in cowrex.read_warc(args["warc"], threads=1):
        docs += 1
    return docs

def fastwarc_resiliparse():
    docs = 0
    with open(args["warc"], "rb") as f:
        for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            body = rec.reader.read()
            extract_plain_text(bytes_to_str(body, detect_encoding(body)), main_content=True)
            docs += 1
    return docs

warc_runs = {"cowrex.read_warc(threads=1)": [], "fastwarc + resiliparse": []}
for _ in range(args["repeat"]):
    for name, f in (("cowrex.read_warc(threads=1)", read_warc), ("fastwarc + resiliparse", fastwarc_resiliparse)):
        warc_runs[name].append(timed(f))
result["warc_cpu_s"] = {k: statistics.median(v) for k, v in warc_runs.items()}
result["warc_runs"] = warc_runs
print(json.dumps(result))
'''


def ensure_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    # trafilatura's jusText needs lxml_html_clean with lxml >= 5.2.
    subprocess.check_call([py, "-m", "pip", "install", "--quiet", "trafilatura", "rs-trafilatura",
                           "resiliparse", "fastwarc", "lxml_html_clean"])
    subprocess.check_call([py, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps",
                           os.path.join(ROOT, "python")])
    return py


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="rounds; medians are reported")
    ap.add_argument("--step", type=int, default=4, help="take every K-th page for the per-page figures")
    args = ap.parse_args()
    os.makedirs(bench.OUT, exist_ok=True)
    warc = os.path.join(bench.OUT, "pages.warc.gz")
    pages, _ = bench.build_warc(warc)
    # The same sample of pages as a WARC, for the CLI's per-document CPU.
    import glob
    import gzip
    sample = sorted(glob.glob(os.path.join(bench.PAGES, "*", "*.html*")))[:: args.step]
    sample_warc = os.path.join(bench.OUT, "sample.warc.gz")
    with open(sample_warc, "wb") as out:
        for i, f in enumerate(sample):
            body = open(f, "rb").read()
            body = gzip.decompress(body) if f.endswith(".gz") else body
            uri = "https://bench.example/%d" % i
            resp = ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body)).encode() + body
            out.write(bench.member(bench.record("response", uri, resp, i + 1, "application/http; msgtype=response")))
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    py = ensure_venv()
    child = {"pages": bench.PAGES, "step": args.step, "repeat": args.repeat, "warc": warc,
             "sample_warc": sample_warc, "out": os.path.join(bench.OUT, "out-python-sample"),
             "cowrex": os.path.join(ROOT, "target", "release", "cowrex")}
    import json
    r = json.loads(subprocess.check_output([py, "-c", CHILD, json.dumps(child)]))
    cores = os.cpu_count()
    print("Pages: %d (every %d-th of ../shared/data/pages), %d rounds, medians; %d cores\n" % (r["pages"], args.step, args.repeat, cores))
    print("| tool | CPU ms per page | relative to cowrex.extract |")
    print("|---|---|---|")
    base = r["per_page_ms"]["cowrex.extract"]
    for name, ms in r["per_page_ms"].items():
        print("| %s | %.2f | %.2f× |" % (name, ms, ms / base))
    cli = r["per_page_ms"]["cowrex process -j1 (CLI)"]
    print("\ncowrex.extract / CLI per-document CPU: %.3f (target ≤ 1.10)" % (base / cli))
    print("Thread pool sharing one Extractor, wall-clock speed-up over 1 thread: "
          + ", ".join("%s threads %.2f×" % (k, v) for k, v in r["pool_speedup"].items()))
    w = r["warc_cpu_s"]
    print("\nBench WARC (%d pages): cowrex.read_warc(threads=1) %.2f CPU s, fastwarc + resiliparse %.2f CPU s "
          "(ratio %.2f)" % (pages, w["cowrex.read_warc(threads=1)"], w["fastwarc + resiliparse"],
                            w["fastwarc + resiliparse"] / w["cowrex.read_warc(threads=1)"]))


if __name__ == "__main__":
    main()
