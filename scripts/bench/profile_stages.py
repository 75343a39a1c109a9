#!/usr/bin/env python3
"""Where cowrex's CPU time goes, by stage: a call-graph profile of `cowrex process -j1`.

Runs `perf record --call-graph dwarf` on `cowrex process -j1 WARC` and counts each sample for
the outermost stage function on its stack (reading, segmentation, texrex's features, language,
scoring, the shown text, writing; a sample in the document analysis outside all of them counts
for "the rest of the document level"). Samples in scoring are also split by detector, and
those in the rest of the document level by the function the analysis called. Prints Markdown
tables of shares; the figures of docs/performance.md ("Where the time goes") come from it.

Needs `perf` (linux-perf). The stacks are unwound from the binary's unwinding tables and named
from its symbols, so the release build serves (built by this script unless `--binary` is given);
functions inlined into another count for it.

Usage: python3 scripts/bench/profile_stages.py [WARC] [--binary BIN] [--freq HZ] [-- PROCESS_OPTIONS]
WARC defaults to target/bench/pages.warc.gz (built by scripts/bench/bench.py).
"""
import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (stage, substrings of a frame's symbol), matched from the outermost frame inwards.
STAGES = [
    ("reading", ["cowrex::pipeline::reader::", "cowrex::warc::read"]),
    ("writing", ["cowrex::pipeline::writer::", "cowrex::pipeline::sink::", "cowrex::output::"]),
    ("segmentation", ["cowrex::html::segmenter::segment"]),
    ("texrex's features", ["cowrex::features::texrex::document_features"]),
    ("language", ["cowrex::classify::identify_language"]),
    ("scoring", ["cowrex::classify::registry::run"]),
    ("shown text", ["cowrex::analyze::text::"]),
]
REST = "rest of the document level"
ANALYZE = "cowrex::analyze::analyze"
# Within scoring: (part, substrings), the first part any frame matches (the trees run inside
# the combined model's own functions).
SCORING = [
    ("combined: trees", ["cowrex::classify::gbt::"]),
    ("combined: feature rows", ["cowrex::classify::combined::"]),
    ("n-gram", ["cowrex::classify::ngram::"]),
    ("texrex's MLP", ["cowrex::classify::mlp::"]),
    ("jusText", ["cowrex::classify::justext::"]),
    ("boilerpipe", ["cowrex::classify::boilerpipe::"]),
    ("markup model", ["cowrex::classify::markup::"]),
]


def first_match(frames, table):
    """The entry of `table` that the outermost matching frame matches."""
    for sym in frames:
        for name, pats in table:
            if any(p in sym for p in pats):
                return name
    return None


def first_entry(frames, table):
    """The first entry of `table` that any frame matches."""
    for name, pats in table:
        if any(p in sym for sym in frames for p in pats):
            return name
    return None


def samples(script_output):
    """Each sample's frames' symbols, outermost first."""
    frames = []
    for line in script_output:
        line = line.rstrip("\n")
        if not line.strip():
            if frames:
                yield frames[::-1]
            frames = []
        elif line.startswith((" ", "\t")):
            parts = line.split(None, 1)
            frames.append(parts[1] if len(parts) > 1 else "")
        # a sample's header line (comm, pid, time) starts in column 0
    if frames:
        yield frames[::-1]


def main():
    ap = argparse.ArgumentParser(usage="%(prog)s [WARC] [--binary BIN] [--freq HZ] [-- PROCESS_OPTIONS]",
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("warc", nargs="?", default=os.path.join(ROOT, "target", "bench", "pages.warc.gz"))
    ap.add_argument("--binary", help="cowrex binary to profile (default: target/release/cowrex, built)")
    ap.add_argument("--freq", type=int, default=499, help="samples per second (default 499)")
    # Split at `--` by hand: argparse's REMAINDER after the optional WARC would also take
    # `--binary` and `--freq` when they follow it.
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    options = argv[cut + 1:]
    if not os.path.exists(args.warc):
        sys.exit("no %s: run scripts/bench/bench.py first, or name a WARC" % args.warc)
    if not shutil.which("perf"):
        sys.exit("perf is not installed (Debian: apt-get install linux-perf)")
    binary = args.binary
    if not binary:
        subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
        binary = os.path.join(ROOT, "target", "release", "cowrex")
    with tempfile.TemporaryDirectory(prefix="cowrex-profile-") as tmp:
        data = os.path.join(tmp, "perf.data")
        cmd = [binary, "process", "--no-progress", "--force", "-j1", args.warc, "-o", os.path.join(tmp, "out"), *options]
        subprocess.check_call(["perf", "record", "-q", "-F", str(args.freq), "--call-graph", "dwarf,16384",
                               "-o", data, "--", *cmd], stdout=subprocess.DEVNULL)
        script = subprocess.Popen(["perf", "script", "-i", data, "-F", "ip,sym", "--no-inline"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
        stages = collections.Counter()
        scoring = collections.Counter()
        rest = collections.Counter()
        total = 0
        for frames in samples(script.stdout):
            total += 1
            stage = first_match(frames, STAGES)
            if stage is None:
                at = next((i for i, f in enumerate(frames) if ANALYZE in f), None)
                if at is None:
                    stage = "other (start-up, threads' waits, unwinding failures)"
                else:
                    stage = REST
                    # The function the analysis called, named without its offset.
                    callee = frames[at + 1] if at + 1 < len(frames) else "the analysis itself"
                    rest[callee.split("+0x")[0].strip()] += 1
            stages[stage] += 1
            if stage == "scoring":
                scoring[first_entry(frames, SCORING) or "other detectors and the registry"] += 1
        script.wait()
    if not total:
        sys.exit("perf recorded no samples")
    print("%s: %d samples, `cowrex process -j1%s`\n" % (os.path.basename(args.warc), total,
                                                         "".join(" " + o for o in options)))
    print("| stage | share of the samples |\n|---|---|")
    for name, n in stages.most_common():
        print("| %s | %.1f %% |" % (name, 100 * n / total))
    print("\n| within scoring | share of all samples |\n|---|---|")
    for name, n in scoring.most_common():
        print("| %s | %.1f %% |" % (name, 100 * n / total))
    print("\n| within the rest of the document level (what the analysis called) | share of all samples |\n|---|---|")
    for name, n in rest.most_common(12):
        print("| `%s` | %.1f %% |" % (name, 100 * n / total))


if __name__ == "__main__":
    main()
