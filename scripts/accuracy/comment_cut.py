#!/usr/bin/env python3
"""What the comment detector's cut does to held-out bag-of-words F1.

Reads the block dump of one `cowrex eval --loso --dump-blocks` run (each block's held-out
comment probability and the scorer's own decision, `scored`), keeps under `--comments drop`
the blocks the scorer keeps whose comment probability is below each cut, and scores those
texts with `cowrex eval --texts` on the same pages. Prints macro and per-set F1 for each cut,
and a nested estimate that tunes nothing on the set it scores: each set is scored at the cut
that is best on the other sets, so the choice of the cut is held out too.

    python3 scripts/accuracy/comment_cut.py --dump BLOCKS.jsonl [--bin target/release/cowrex] \\
        [--cuts 0.5,0.6,...] [--keep SET,...] ../shared/data/pages ../shared/data/snippets

The dump at cut 0.5 (the shipped one) reproduces the run's own figures, which the script
checks against the run's `--json` when given one (`--json`). `--keep SETS` scores those sets
under `--comments keep` instead, for sets whose gold keeps readers' comments.

`--threads SHARES` adds a decision per page: where the comment blocks hold at least SHARE of
the characters the scorer keeps, the page is taken for a thread of posts (a forum, a
question and its answers), whose posts are its content, and its comment blocks are kept;
elsewhere they are dropped. Each (cut, share) is then scored, beside each cut without the
decision, and the nested estimate chooses both on the other sets.

`--before CHARS` decides by position instead: a comment section follows what it comments on,
so a page whose kept blocks before its first comment block hold fewer than CHARS characters
is taken for a thread of posts, and its comment blocks are kept.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def is_comment(b, cut):
    return b["comment"] is not None and b["comment"] >= cut


def thread_share(page, cut):
    """The share of the characters the scorer keeps of a page that its comment blocks hold."""
    kept = [b for b in page["blocks"] if b["scored"]]
    total = sum(len(b["text"]) for b in kept)
    comments = sum(len(b["text"]) for b in kept if is_comment(b, cut))
    return comments / total if total else 0.0


def text_before(page, cut):
    """The characters of the kept blocks before a page's first comment block (None if it has
    no comment block among those the scorer keeps)."""
    chars = 0
    for b in page["blocks"]:
        if not b["scored"]:
            continue
        if is_comment(b, cut):
            return chars
        chars += len(b["text"])
    return None


def is_thread(page, cut, decision):
    """Whether the decision per page (None, ("share", S) or ("before", C)) takes the page for
    a thread of posts."""
    if decision is None:
        return False
    how, x = decision
    if how == "share":
        return thread_share(page, cut) >= x
    before = text_before(page, cut)
    return before is not None and before < x


def texts_at(dump_lines, cut, keep_sets=(), decision=None):
    """Each page's text with comment blocks those at `cut` or above: under --comments drop,
    or --comments keep for the pages of `keep_sets` and for the pages the decision per page
    takes for threads."""
    out = []
    for page in dump_lines:
        keep = page["set"] in keep_sets or is_thread(page, cut, decision)

        def kept_block(b):
            if b["comment"] is None or b["comment"] < cut:
                return b["scored"]
            return keep

        kept = [b["text"] for b in page["blocks"] if kept_block(b)]
        out.append({"page_id": page["page_id"], "text": "\n".join(kept)})
    return out


def name(config):
    """`cut C`, with the decision per page: `threads from S` or `threads under C chars before`."""
    cut, decision = config
    if decision is None:
        return f"cut {cut}"
    how, x = decision
    if how == "share":
        return f"cut {cut}, threads from {x}"
    return f"cut {cut}, threads under {x:g} chars before"


def score(binary, dirs, sets, texts, tmp):
    """`cowrex eval --texts`'s JSON report of these texts."""
    texts_file = os.path.join(tmp, "texts.jsonl")
    json_file = os.path.join(tmp, "report.json")
    with open(texts_file, "w", encoding="utf-8") as f:
        for t in texts:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    subprocess.run(
        [binary, "eval", *dirs, *(["--sets", sets] if sets else []), "--texts", texts_file]
        + ["--json", json_file],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with open(json_file, encoding="utf-8") as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="the page directories the run evaluated")
    ap.add_argument("--dump", required=True, help="the run's --dump-blocks file")
    ap.add_argument("--json", help="the run's --json report, to check cut 0.5 against")
    ap.add_argument("--sets", help="the sets the run evaluated (eval's --sets)")
    ap.add_argument("--bin", default="target/release/cowrex")
    ap.add_argument(
        "--keep",
        default="",
        help="sets scored under --comments keep (comma-separated: those whose gold keeps "
        "readers' comments), the others under drop",
    )
    ap.add_argument(
        "--cuts",
        default="0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.01",
        help="comment probabilities from which a block is a comment (1.01: none is)",
    )
    ap.add_argument(
        "--threads",
        help="shares of the kept characters in comment blocks from which a page is a thread "
        "whose comment blocks are kept (comma-separated; each cut is scored without the decision too)",
    )
    ap.add_argument(
        "--before",
        help="characters kept before the first comment block under which a page is a thread "
        "whose comment blocks are kept (comma-separated; each cut is scored without the decision too)",
    )
    a = ap.parse_args()
    cuts = [float(c) for c in a.cuts.split(",")]
    # The cut alone is always scored, beside each decision per page asked for.
    decisions = [None]
    if a.threads:
        decisions += [("share", float(x)) for x in a.threads.split(",")]
    if a.before:
        decisions += [("before", float(x)) for x in a.before.split(",")]
    # What is scored: (cut, decision), decision None without the decision per page.
    configs = [(c, d) for c in cuts for d in decisions]
    keep_sets = set(filter(None, a.keep.split(",")))
    with open(a.dump, encoding="utf-8") as f:
        dump_lines = [json.loads(line) for line in f]
    reports = {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in configs:
            texts = texts_at(dump_lines, c[0], keep_sets, c[1])
            reports[c] = score(a.bin, a.dirs, a.sets, texts, tmp)
            print(f"{name(c)}: macro F1 {reports[c]['macro']['f1']:.4f}", file=sys.stderr)
    gold_sets = [s for s, v in reports[configs[0]]["sets"].items() if "f1" in v]
    shipped = (0.5, None)
    if a.json and shipped in reports and not keep_sets:
        with open(a.json, encoding="utf-8") as f:
            run = json.load(f)
        for s in gold_sets:
            mine, theirs = reports[shipped]["sets"][s]["f1"], run["sets"][s]["f1"]
            if abs(mine - theirs) > 1e-9:
                sys.exit(f"cut 0.5 gives {s} F1 {mine}, the run {theirs}: not the same decisions")
        print("cut 0.5 reproduces the run's F1 on every set")

    def f1(c, s):
        return reports[c]["sets"][s]["f1"]

    def forum(c):
        kinds = reports[c]["sets"].get("wcxb-dev", {}).get("kinds", {})
        return kinds.get("forum", {}).get("f1")

    snippet_sets = [
        s for s, v in reports[configs[0]]["sets"].items() if "f1" not in v and "snippets" in v
    ]
    print(
        "| cut | "
        + " | ".join(s + (" (keep)" if s in keep_sets else "") for s in gold_sets)
        + " | wcxb forum | macro P | macro R | macro F1 |"
        + "".join(f" {s} snippets P / R |" for s in snippet_sets)
    )
    print("|---" * (len(gold_sets) + 5 + len(snippet_sets)) + "|")
    for c in configs:
        m = reports[c]["macro"]
        fo = forum(c)
        row = [f"{f1(c, s):.4f}" for s in gold_sets]
        row += [f"{fo:.4f}" if fo is not None else "–"]
        row += [f"{m['precision']:.4f}", f"{m['recall']:.4f}", f"**{m['f1']:.4f}**"]
        for sn in snippet_sets:
            v = reports[c]["sets"][sn]["snippets"]
            row.append(f"{v['precision']:.4f} / {v['recall']:.4f}")
        print(f"| {name(c)} | " + " | ".join(row) + " |")

    def tie(c):
        """Among equals, the lower cut and the page decision used least."""
        d = c[1]
        if d is None:
            return (-c[0], 9)
        return (-c[0], d[1] if d[0] == "share" else -d[1])

    # Nested: each set at the configuration best on the others.
    nested = {}
    for s in gold_sets:
        others = [o for o in gold_sets if o != s]
        best = max(configs, key=lambda c: (sum(f1(c, o) for o in others), tie(c)))
        nested[s] = (best, f1(best, s), reports[best]["sets"][s]["precision"])
    chosen = max(configs, key=lambda c: (reports[c]["macro"]["f1"], tie(c)))
    print()
    print("nested (each set at the cut best on the other sets):")
    for s, (c, f, _) in nested.items():
        print(f"  {s}: {name(c)}, F1 {f:.4f}")
    n = len(nested)
    print(
        f"  macro F1 {sum(f for _, f, _ in nested.values()) / n:.4f}, "
        f"macro P {sum(p for _, _, p in nested.values()) / n:.4f}"
    )
    print(f"best on all sets: {name(chosen)}")


if __name__ == "__main__":
    main()
