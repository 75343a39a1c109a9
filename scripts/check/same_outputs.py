#!/usr/bin/env python3
"""Whether two cowrex binaries write the same outputs: for a change that must not change them
(a reorganisation, a speed-up).

Runs `BIN process` of each binary on the same inputs with the same options, in each of the
configurations below, and compares every output file decompressed, the statistics without
`time_ms`, and `S.done.json` without the fields that differ between runs of one binary
(`finished`, `time_ms`); then `BIN extract` on the HTML fixtures in every format.

Inputs: the fixtures' WARC and ARC files, every WARC and ARC file of ../shared/data/warc
(if present), and bench.py's WARC of the development pages (built if missing; `--no-bench`
leaves it out, as it takes a minute per binary and configuration).

Prints each difference (the file, and the first differing line) and exits 1 if there is any.

Usage: python3 scripts/check/same_outputs.py A_BIN B_BIN [--no-bench] [--keep DIR]
"""
import argparse
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "data")
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
import bench  # noqa: E402  (its WARC builder)

# The configurations: every format and optional output; the non-default scorer paths.
CONFIGS = {
    "default": ["--format", "xml,jsonl,vrt", "--links", "--markdown"],
    "mlp": ["--format", "jsonl", "--scorer", "mlp", "--exact-dups", "skip", "--dup-blocks", "drop"],
}
EXTRACT_FORMATS = ["text", "json", "tsv", "markdown"]
# Fields of a JSON output that differ between two runs of the same binary.
VOLATILE = {"time_ms", "finished", "started", "elapsed_s"}


def inputs(bench_warc):
    files = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.warc.gz")))
    files += sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.arc.gz")))
    shared = os.path.join(DATA, "warc")
    if os.path.isdir(shared):
        files += sorted(f for f in glob.glob(os.path.join(shared, "*.gz"))
                        if not f.endswith((".wat.gz", ".wet.gz")))
    else:
        print("note: %s is absent; the shared WARCs are left out" % shared)
    if bench_warc:
        files.append(bench_warc)
    return files


def content(path):
    """A file's bytes, decompressed; a JSON file's without its volatile fields."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if path.endswith(".json"):
        def strip(v):
            if isinstance(v, dict):
                return {k: strip(x) for k, x in v.items() if k not in VOLATILE}
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v
        data = json.dumps(strip(json.loads(data)), sort_keys=True, indent=1).encode()
    return data


def first_difference(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d:\n  A %s\n  B %s" % (i + 1, x[:300], y[:300])
    return "A has %d lines, B %d" % (len(la), len(lb))


def compare_dirs(a, b, label):
    diffs = 0
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    for name in names:
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            print("DIFF %s/%s: only in %s" % (label, name, "A" if os.path.exists(pa) else "B"))
            diffs += 1
            continue
        ca, cb = content(pa), content(pb)
        if ca != cb:
            print("DIFF %s/%s: %s" % (label, name, first_difference(ca, cb)))
            diffs += 1
    return diffs, len(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="the reference binary")
    ap.add_argument("b", help="the binary to compare")
    ap.add_argument("--no-bench", action="store_true", help="leave bench.py's WARC out")
    ap.add_argument("--keep", metavar="DIR", help="write the outputs here and keep them")
    args = ap.parse_args()

    bench_warc = None
    if not args.no_bench and os.path.isdir(bench.PAGES):
        bench_warc = os.path.join(bench.OUT, "pages.warc.gz")
        if not os.path.exists(bench_warc):
            os.makedirs(bench.OUT, exist_ok=True)
            bench.build_warc(bench_warc, sorted(os.listdir(bench.PAGES)))
    files = inputs(bench_warc)
    work = args.keep or tempfile.mkdtemp(prefix="cowrex-same-")
    diffs = compared = 0
    try:
        for config, options in CONFIGS.items():
            # Each input on its own: inputs of the same name (an ARC and a WARC) would clash.
            for path in files:
                label = "%s/%s" % (config, os.path.basename(path))
                outs = []
                for side, binary in (("A", args.a), ("B", args.b)):
                    out = os.path.join(work, label, side)
                    shutil.rmtree(out, ignore_errors=True)
                    # -j2 on one side and -j1 on the other: outputs do not depend on threads.
                    threads = "2" if side == "A" else "1"
                    run = subprocess.run([binary, "process", "--no-progress", "--force", "-j", threads,
                                          *options, path, "-o", out],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                    if run.returncode not in (0, 1):
                        sys.exit("%s failed on %s: %s" % (binary, path, run.stderr.decode(errors="replace")))
                    outs.append(out)
                d, n = compare_dirs(*outs, label)
                diffs += d
                compared += n
        for page in sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.html"))):
            for fmt in EXTRACT_FORMATS:
                got = [subprocess.run([b, "extract", page, "--format", fmt, "--url", "https://example.org/"],
                                      capture_output=True).stdout for b in (args.a, args.b)]
                compared += 1
                if got[0] != got[1]:
                    print("DIFF extract %s --format %s: %s"
                          % (os.path.basename(page), fmt, first_difference(*got)))
                    diffs += 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d of %d outputs differ (%d inputs%s)"
          % (diffs, compared, len(files), ", bench.py's WARC among them" if bench_warc else ""))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
