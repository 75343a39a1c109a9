#!/usr/bin/env python3
"""Language-identification agreement between two cowrex binaries on the development pages.

Builds target/lang/pages.warc.gz (as scripts/bench/bench.py builds its WARC) from every page in
../shared/data/pages/html/* and ../shared/data/snippets/html/* (if present), runs
`BIN process --format jsonl` of each binary on it, and compares each document's `language`
(matched by WARC record ID). Only documents whose blocks hold more than --min-chars characters
in all count (200 by default: identification on less text is a guess either way).

Prints, per language of binary A (`none` = not identified), the documents, how many B gives
the same language, the agreement, and what B gives instead; then the total; then, per page set
(the directory a page came from), the documents and those whose language B changes. Issue 57's
criterion for a cheaper identifier is a total agreement of at least 99 %.

Usage: python3 scripts/accuracy/lang_agreement.py A_BIN B_BIN [--min-chars N] [--env-b NAME=VALUE]...
"""
import argparse
import collections
import glob
import gzip
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "data")
OUT = os.path.join(ROOT, "target", "lang")
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
import bench  # noqa: E402  (its WARC builder)


def languages(binary, warc, out, env):
    subprocess.check_call([binary, "process", "--no-progress", "--force", "-j2", "--format", "jsonl",
                           warc, "-o", out], env=dict(os.environ, **env), stderr=subprocess.DEVNULL)
    langs = {}
    with gzip.open(os.path.join(out, "pages.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            chars = sum(len(b.get("text", "")) for b in d.get("blocks", []))
            # The page's set: the directory in its URL (https://bench.example/SET/ID).
            page_set = d["url"].split("/")[3]
            langs[d["provenance"]["warc_record_id"]] = (d.get("language") or "none", chars, page_set)
    return langs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="the reference binary (today's identifier)")
    ap.add_argument("b", help="the binary to compare")
    ap.add_argument("--min-chars", type=int, default=200, help="count documents with more characters")
    ap.add_argument("--env-b", action="append", default=[], metavar="NAME=VALUE",
                    help="environment for B's run (for experiments)")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    warc = os.path.join(OUT, "pages.warc.gz")
    if not os.path.exists(warc):
        sets = [os.path.relpath(d, DATA) for d in sorted(glob.glob(os.path.join(DATA, "*", "html", "*")))]
        pages, _ = bench.build_warc(warc, sets, root=DATA)
        print("built %s: %d pages" % (warc, pages))
    env_b = dict(kv.split("=", 1) for kv in args.env_b)
    a = languages(args.a, warc, os.path.join(OUT, "a"), {})
    b = languages(args.b, warc, os.path.join(OUT, "b"), env_b)
    rows = collections.defaultdict(lambda: [0, 0, collections.Counter()])
    by_set = collections.defaultdict(lambda: [0, collections.Counter()])
    for rid, (la, chars, page_set) in a.items():
        if chars <= args.min_chars:
            continue
        lb = b.get(rid, ("missing",))[0]
        r = rows[la]
        r[0] += 1
        by_set[page_set][0] += 1
        if la == lb:
            r[1] += 1
        else:
            r[2][lb] += 1
            by_set[page_set][1]["%s → %s" % (la, lb)] += 1
    print("| language (A) | documents | same in B | agreement | B instead |")
    print("|---|---|---|---|---|")
    for lang, (n, same, other) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        instead = ", ".join("%s %d" % kv for kv in other.most_common())
        print("| %s | %d | %d | %.2f %% | %s |" % (lang, n, same, 100.0 * same / n, instead))
    n = sum(r[0] for r in rows.values())
    same = sum(r[1] for r in rows.values())
    print("| **all** | %d | %d | %.2f %% | |" % (n, same, 100.0 * same / max(n, 1)))
    print()
    print("| page set | documents | language changed | changes (A → B) |")
    print("|---|---|---|---|")
    for page_set, (n, changes) in sorted(by_set.items()):
        listed = ", ".join("%s %d" % kv for kv in changes.most_common())
        print("| %s | %d | %d | %s |" % (page_set, n, sum(changes.values()), listed))


if __name__ == "__main__":
    main()
