#!/usr/bin/env python3
"""Language identification alone: seconds per pass of `analyze::identify_blocks` over the blocks
of bench.py's WARC's documents, as a run reads them, for designing the identifier without the
rest of the pipeline's noise.

Builds target/bench/pages.warc.gz as bench.py does (if missing), has `cowrex process --format
jsonl` write its documents, keeps each document's block texts in target/bench/lid_blocks.jsonl
(one JSON list a line), builds the example `lid_bench` (cargo build --release --example
lid_bench) and runs it --repeat times; prints the best and median seconds per pass.
`--values FILE` writes every document's and block's language and score (from the first run), so
two builds' values can be compared with `cmp`.

Usage: python3 scripts/bench/bench_lid.py [--repeat 5] [--passes 2] [--values FILE]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_signals import run_example  # noqa: E402

if __name__ == "__main__":
    run_example("lid_bench", "lid_blocks.jsonl", lambda d: [b["text"] for b in d["blocks"]],
                __doc__, "language identification")
