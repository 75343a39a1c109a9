#!/usr/bin/env python3
"""The quality signals alone: seconds per pass of `signals::compute` over the texts cowrex keeps
of bench.py's WARC, for designing the signals without the rest of the pipeline's noise.

Builds target/bench/pages.warc.gz as bench.py does (if missing), has `cowrex process --format
jsonl` write its documents, keeps their texts in target/bench/signals_texts.jsonl, builds the
example `signals_bench` (cargo build --release --example signals_bench) and runs it --repeat
times; prints the best and median seconds per pass. `--values FILE` writes every text's
signal values (from the first run), so two builds' values can be compared with `cmp`.

Usage: python3 scripts/bench/bench_signals.py [--repeat 5] [--passes 2] [--values FILE]
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "target", "bench")
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
from bench import build_warc  # noqa: E402


def derived_file(cowrex, name, pick):
    """target/bench/NAME: `pick(document)` as JSON, one line per document of bench.py's WARC
    (its JSONL as `cowrex process --format jsonl` writes it); made once."""
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        return path
    warc = os.path.join(OUT, "pages.warc.gz")
    if not os.path.exists(warc):
        build_warc(warc, ["*"])
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([cowrex, "process", warc, "--format", "jsonl", "--no-progress", "-o", tmp],
                       check=True, stdout=subprocess.DEVNULL)
        with gzip.open(os.path.join(tmp, "pages.jsonl.gz"), "rt", encoding="utf-8") as f, \
                open(path + ".part", "w", encoding="utf-8") as out:
            for line in f:
                out.write(json.dumps(pick(json.loads(line)), ensure_ascii=False) + "\n")
    os.replace(path + ".part", path)
    return path


def run_example(example, data_name, pick, doc, what):
    """The command line of a bench script over `example` (an example of the crate that reads
    the file `data_name`, made by `pick` from each document, and prints its seconds per pass
    first on standard error); `doc` is the script's docstring, `what` the part measured."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of the example (default 5)")
    ap.add_argument("--passes", type=int, default=2, help="passes over the data a run")
    ap.add_argument("--values", help="write the values computed (first run) here")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "cowrex-cli", "--bin", "cowrex"],
                   cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "--example", example],
                   cwd=ROOT, check=True)
    data = derived_file(os.path.join(ROOT, "target", "release", "cowrex"), data_name, pick)
    binary = os.path.join(ROOT, "target", "release", "examples", example)
    times = []
    for i in range(a.repeat):
        extra = [a.values] if a.values and i == 0 else []
        r = subprocess.run([binary, data, str(a.passes), *extra], check=True,
                           stderr=subprocess.PIPE, text=True)
        times.append(float(r.stderr.split()[0]))
        print(r.stderr.strip(), file=sys.stderr)
    print(f"{what}: best {min(times):.3f} s per pass, median "
          f"{statistics.median(times):.3f} ({a.repeat} runs)")


def main():
    run_example("signals_bench", "signals_texts.jsonl", lambda d: d["text"], __doc__,
                "signals::compute")


if __name__ == "__main__":
    main()
