#!/usr/bin/env python3
"""The shipped models against other extractors on pages none of cowrex's models was trained or
tuned on: texrex's 426 annotated documents (German, English, French, Swedish; crawled 2011-2014).

Usage: python3 scripts/accuracy/unseen.py [--out DIR]   (about 3 minutes on 2 cores once the peers are
installed in DIR/venv; needs gpg and ../shared/data/texrex-boilerplate)

The pages are converted by scripts/train/texrex_pages.py (gold text: the blocks texrex's annotators
kept). The combined model, the n-gram models and every threshold were trained and chosen on
../shared/data/pages only. texrex's MLPs, though, were trained on exactly these pages (their
training sets are these blocks' features), so the MLP score they give the combined model would
be in-sample here. The script therefore cross-validates the MLPs by page: the pages of each
language are split into 5 folds (page i in fold i mod 5, in ground-truth order), an MLP is
trained on the other folds' blocks (texrex's own features and labels, `cowrex train mlp`, the
shipped models' settings), and the fold's pages are scored with it (`--model`), by the combined
model and by the MLP alone. jusText and boilerpipe are not trained. The peers run as in
scripts/accuracy/compare.py (same virtual environment and extraction code; jusText with the page
language's stop-word list), and `cowrex eval` scores every tool with the same metric.

Prints the table of scripts/accuracy/compare.py, the same split into the pages whose gold text has words
and those whose annotators kept nothing (where F1 is 1 only for an empty extraction), and the
page-by-page comparison of the combined model with trafilatura.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "train"))
import compare  # noqa: E402
import texrex_pages  # noqa: E402  (scripts/train/texrex_pages.py)

FOLDS = 5
STOPLISTS = {"de": "German", "en": "English", "fr": "French", "sv": "Swedish"}


def mlp_rows(lang, stem):
    """texrex's 37 features and the label (1 = boilerplate) of each block of one page labelled
    0 or 1."""
    src = texrex_pages.SOURCE / lang
    features = [l.split() for l in texrex_pages.decrypt(src / "csv" / f"{stem}.csv.gpg")
                .decode().splitlines() if l.strip()]
    labels = [l[0] for l in texrex_pages.decrypt(src / "annotated" / f"{stem}.txt.gpg")
              .decode("utf-8", "replace").splitlines() if texrex_pages.LABEL.match(l)]
    if len(features) != len(labels):
        sys.exit(f"unseen.py: {lang}/{stem}: {len(features)} feature rows, {len(labels)} labels")
    # The German pages' feature files come from an older texrex, with 38 columns; without the
    # 15th they have boilerplate.de.dat's layout (the column whose removal matches the most of
    # its rows).
    features = [f[:14] + f[15:] if len(f) == 38 else f for f in features]
    return [f + [y] for f, y in zip(features, labels) if y in "01"]


def figures(pages, sets):
    """`cowrex eval --json`'s shape (per set and macro means of page figures) from its pages."""
    out = {"sets": {}, "pages": pages}
    for s in sets:
        ps = [p for p in pages if p["set"] == s]
        out["sets"][s] = {k: sum(p[k] for p in ps) / len(ps) for k in ("f1", "precision", "recall")}
    out["macro"] = {k: sum(out["sets"][s][k] for s in sets) / len(sets)
                    for k in ("f1", "precision", "recall")}
    return out


def cross_validated(cowrex, out, sets):
    """Combined model and MLP with page-fold MLPs: (combined pages, MLP pages)."""
    combined, mlp = [], []
    for s in sets:
        lang = s.split("-")[1]
        gold = [json.loads(l) for l in open(out / "pages" / "ground-truth" / f"{s}.jsonl")]
        rows = {g["page_id"]: mlp_rows(lang, g["source"][1]) for g in gold}
        for k in range(FOLDS):
            fold = out / "folds" / f"{s}-{k}"
            (fold / "ground-truth").mkdir(parents=True, exist_ok=True)
            (fold / "html" / s).mkdir(parents=True, exist_ok=True)
            with open(fold / "train.tsv", "w") as f:
                for i, g in enumerate(gold):
                    if i % FOLDS != k:
                        f.writelines("\t".join(r) + "\n" for r in rows[g["page_id"]])
            model = fold / "texrex.mlp"
            subprocess.run([cowrex, "train", "mlp", "--data", fold / "train.tsv", "-o", model],
                           check=True, stdout=subprocess.DEVNULL)
            with open(fold / "ground-truth" / f"{s}.jsonl", "w") as f:
                for i, g in enumerate(gold):
                    if i % FOLDS == k:
                        f.write(json.dumps(g, ensure_ascii=False) + "\n")
                        link = fold / "html" / s / f"{g['page_id']}.html.gz"
                        if not link.exists():
                            link.symlink_to(out / "pages" / "html" / s / link.name)
            for scorer, pages in [("combined", combined), ("mlp", mlp)]:
                r = compare.cowrex_eval(cowrex, [str(fold)], [s],
                                        ["--scorer", scorer, "--model", str(model)],
                                        str(fold / f"{scorer}.json"))
                pages.extend(r["pages"])
    return combined, mlp


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(compare.ROOT, "target", "unseen"))
    args = ap.parse_args()
    if not texrex_pages.SOURCE.is_dir():
        sys.exit(f"unseen.py: needs {texrex_pages.SOURCE}")
    out = pathlib.Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=compare.ROOT)
    cowrex = os.path.join(compare.ROOT, "target", "release", "cowrex")
    print("unseen.py: converting texrex's pages", file=sys.stderr)
    sets = sorted(texrex_pages.convert(out / "pages"))
    pages_dir = str(out / "pages")

    print("unseen.py: MLPs cross-validated by page", file=sys.stderr)
    combined, mlp = cross_validated(cowrex, out, sets)
    rows = [("cowrex combined (shipped; MLP 5-fold CV by page)", figures(combined, sets), None),
            ("cowrex MLP (threshold 0.5; 5-fold CV by page)", figures(mlp, sets), None)]
    for name, scorer in [("cowrex jusText", "justext"),
                         ("cowrex boilerpipe, Algorithm 2 (number of words)", "boilerpipe"),
                         ("cowrex boilerpipe, CleanEval rule", "boilerpipe-cleaneval"),
                         ("cowrex, all blocks (baseline)", "all")]:
        rows.append((name, compare.cowrex_eval(cowrex, [pages_dir], sets, ["--scorer", scorer],
                                               str(out / "cowrex.json")), None))

    py, versions = compare.ensure_peers(str(out / "venv"))
    peer_script = out / "peer.py"
    peer_script.write_text(compare.PEER)
    for tool in compare.PEERS:
        print(f"unseen.py: {tool}", file=sys.stderr)
        pages, run = [], {"failed": 0, "cpu": 0.0, "pages": 0}
        for s in sets:
            listing, texts = out / f"{s}.pages.jsonl", out / f"{s}.{tool}.jsonl"
            with open(listing, "w") as f:
                f.writelines(json.dumps(p) + "\n" for p in compare.list_pages(pages_dir, [s]))
            env = dict(os.environ, JUSTEXT_STOPLIST=STOPLISTS[s.split("-")[1]])
            r = json.loads(subprocess.check_output([py, peer_script, tool, listing, texts], env=env))
            for k in run:
                run[k] += r[k]
            pages += compare.cowrex_eval(cowrex, [pages_dir], [s], ["--texts", str(texts)],
                                         str(out / f"{tool}.json"))["pages"]
        rows.append((tool, figures(pages, sets), run))

    print(f"Pages: {len(combined)} of texrex's annotated documents ({', '.join(sets)}); peers: {versions}\n")
    compare.print_table(rows, sets)
    empty = set()
    for s in sets:
        for line in open(out / "pages" / "ground-truth" / f"{s}.jsonl"):
            g = json.loads(line)
            if not re.search(r"\w", g["plaintext"]):
                empty.add(g["page_id"])
    print_split(rows, sets, empty)
    compare.paired(rows[0], next(r for r in rows if r[0] == "trafilatura"), sets)


def print_split(rows, sets, empty):
    """Mean F1 over the pages whose gold text has words, and over those without (where F1 is 1
    when a tool extracts no word, else 0: the share of such pages it leaves empty)."""
    def mean(pages):
        return sum(p["f1"] for p in pages) / len(pages) if pages else float("nan")
    counts = [(sum(p["set"] == s and p["page_id"] not in empty for p in rows[0][1]["pages"]),
               sum(p["set"] == s and p["page_id"] in empty for p in rows[0][1]["pages"]))
              for s in sets]
    print("\nPages with gold text (F1) and pages whose annotators kept nothing (share left empty):\n")
    print("| extractor | " + " | ".join(f"{s} ({n})" for s, (n, _) in zip(sets, counts)) +
          " | macro F1 | " + " | ".join(f"{s} empty ({m})" for s, (_, m) in zip(sets, counts)) + " |")
    print("|---|" + "---|" * (2 * len(sets) + 1))
    for name, r, _ in rows:
        full = [mean([p for p in r["pages"] if p["set"] == s and p["page_id"] not in empty]) for s in sets]
        none = [mean([p for p in r["pages"] if p["set"] == s and p["page_id"] in empty]) for s in sets]
        print(f"| {name} | " + " | ".join(f"{x:.4f}" for x in full) +
              f" | {sum(full) / len(full):.4f} | " + " | ".join(f"{x:.2f}" for x in none) + " |")


if __name__ == "__main__":
    main()
