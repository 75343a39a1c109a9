#!/usr/bin/env python3
"""Compare cowrex's scorers with other extractors on the same pages and the same metric.

Usage: python3 scripts/accuracy/compare.py [--pages DIR ...] [--sets a,b] [--out DIR] [--no-cv] [--cv-by site] [--reuse]

Installs trafilatura, rs-trafilatura, resiliparse, justext and boilerpy3 from PyPI into a
virtual environment (OUT/venv, on first use), runs each of them (trafilatura twice: with its
defaults, which keep comment sections, and with include_comments=False) on every page of a pages
directory (the layout of ../shared/data/pages; by default ../shared/data/pages and
../shared/data/snippets, whose pages have snippet gold only), and writes their texts to
OUT/<tool>.jsonl. Each peer reads a page as UTF-8 when its bytes are valid UTF-8, else decoded
as resiliparse detects its encoding (jusText reads the bytes itself).
Every tool, and each cowrex scorer (combined, MLP, n-gram, jusText, boilerpipe's classifiers),
is then scored by `cowrex eval` -- peers through `--texts` -- so that one implementation of the
bag-of-words metric (docs/accuracy.md) measures them all.

The combined model is measured twice: leaving one source out (`--loso`: each set is scored by
a combined model and n-gram models trained on the other sets only, the figure that says how
cowrex does on pages of a source it has not seen), and cross-validated (`--cv 5`: no page is
scored by a model trained on it, but its set's conventions are in training; left out with
--no-cv). The folds are by page, or with --cv-by site by site, so that no page's site is in
its training either (pages without a URL or canonical URL fold by page). The combined model
takes block labels from ../shared/data/blocks when it exists beside the pages. The MLPs were
trained on texrex's data, not on these pages; jusText and boilerpipe are not trained.

Prints Markdown tables: F1 per set with gold text (mean over pages), macro F1, precision and
recall over those sets, and the peers' CPU milliseconds per page (a page a tool fails on counts
as extracting nothing; failures are counted); F1 by page type for the sets that have types
(WCXB); snippet checks for every set with snippets, as trafilatura's evaluation counts them
(precision = `with` snippets found / all snippets found, recall = share of the `with` snippets
found), with precision, recall and F by language (as cowrex identifies it) for the sets with
snippet gold only; the precision and recall of each --favor of the combined model, per set,
beside trafilatura's and rs-trafilatura's; and, page by page, the combined model left out of
each source against trafilatura (both settings) and rs-trafilatura: per set with gold text, the
mean difference in F1 with a 95 % bootstrap interval. --reuse goes on from an interrupted run.
"""

import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PEERS = ["trafilatura", "rs-trafilatura", "resiliparse", "justext", "boilerpy3"]
# The tools run: the peers, and trafilatura once more without comment sections (its default keeps
# them; rs-trafilatura's leaves them out), the gold texts' definition of main content.
TOOLS = ["trafilatura", "trafilatura-no-comments", *PEERS[1:]]
# justext (also used by trafilatura) needs lxml's HTML cleaner, a separate package since lxml 5.2.
EXTRA = ["lxml_html_clean"]

# Runs inside the virtual environment: extract every page with one tool (jusText with the stop
# list of the language JUSTEXT_STOPLIST names, English by default).
PEER = r'''
import gzip, json, os, sys, time, warnings
warnings.filterwarnings("ignore")
import logging
logging.disable(logging.CRITICAL)
tool, listing, out = sys.argv[1], sys.argv[2], sys.argv[3]

def decode(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        return bytes_to_str(raw, detect_encoding(raw))

if tool == "trafilatura":
    import trafilatura
    def extract(html, raw):
        return trafilatura.extract(html) or ""
elif tool == "trafilatura-no-comments":
    import trafilatura
    def extract(html, raw):
        return trafilatura.extract(html, include_comments=False) or ""
elif tool == "rs-trafilatura":
    import rs_trafilatura
    def extract(html, raw):
        return rs_trafilatura.extract(html).main_content or ""
elif tool == "resiliparse":
    from resiliparse.extract.html2text import extract_plain_text
    def extract(html, raw):
        return extract_plain_text(html, main_content=True)
elif tool == "justext":
    import justext
    stoplist = justext.get_stoplist(os.environ.get("JUSTEXT_STOPLIST", "English"))
    def extract(html, raw):
        return "\n".join(p.text for p in justext.justext(raw, stoplist) if not p.is_boilerplate)
elif tool == "boilerpy3":
    from boilerpy3 import extractors
    extractor = extractors.ArticleExtractor()
    def extract(html, raw):
        return extractor.get_content(html) or ""
else:
    sys.exit("unknown tool " + tool)

failed = 0
cpu = 0.0
pages = [json.loads(l) for l in open(listing)]
with open(out, "w") as f:
    for p in pages:
        raw = open(p["path"], "rb").read()
        if p["path"].endswith(".gz"):
            raw = gzip.decompress(raw)
        html = decode(raw)
        t = time.process_time()
        try:
            text = extract(html, raw)
        except Exception:
            text, failed = "", failed + 1
        cpu += time.process_time() - t
        f.write(json.dumps({"page_id": p["page_id"], "text": text}) + "\n")
print(json.dumps({"failed": failed, "cpu": cpu, "pages": len(pages)}))
'''


def ensure_peers(venv):
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    try:
        subprocess.check_call([py, "-c", "import trafilatura, rs_trafilatura, resiliparse, justext, boilerpy3"],
                              stderr=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        subprocess.check_call([py, "-m", "pip", "install", "--quiet", *PEERS, *EXTRA])
    versions = subprocess.check_output(
        [py, "-c", "import importlib.metadata as m, sys; "
                   "print(' '.join(f'{p}=={m.version(p)}' for p in sys.argv[1:]))", *PEERS],
        text=True).strip()
    return py, versions


def list_pages(pages_dir, sets):
    out = []
    for s in sets:
        for line in open(os.path.join(pages_dir, "ground-truth", s + ".jsonl")):
            if not line.strip():
                continue
            pid = json.loads(line)["page_id"]
            for name in (pid + ".html.gz", pid + ".html"):
                path = os.path.join(pages_dir, "html", s, name)
                if os.path.exists(path):
                    out.append({"page_id": pid, "path": path})
                    break
    return out


def cowrex_eval(cowrex, dirs, sets, args, json_out):
    cmd = [cowrex, "eval", *dirs, "--sets", ",".join(sets), "--json", json_out, *args]
    subprocess.check_call(cmd, stdout=subprocess.DEVNULL)
    return json.load(open(json_out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", action="append", metavar="DIR",
                    help="a directory in the pages layout; repeatable (default: "
                         "../shared/data/pages and ../shared/data/snippets)")
    ap.add_argument("--sets", help="comma-separated sets (default: all)")
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "compare"))
    ap.add_argument("--no-cv", action="store_true", help="leave out the cross-validation")
    ap.add_argument("--cv-by", choices=["page", "site"], default="page",
                    help="how the cross-validation folds the pages (eval --cv-by; default: page)")
    ap.add_argument("--reuse", action="store_true",
                    help="take each cowrex run's JSON and each peer's texts that OUT already has "
                         "from an earlier run on the same pages (an interrupted run goes on)")
    args = ap.parse_args()
    data = os.path.join(ROOT, "..", "shared", "data")
    dirs = [os.path.abspath(d) for d in args.pages or
            [os.path.join(data, "pages"),
             *[os.path.join(data, "snippets")] * os.path.isdir(os.path.join(data, "snippets"))]]
    set_dir = {}
    for d in dirs:
        if not os.path.isdir(os.path.join(d, "ground-truth")):
            sys.exit(f"compare.py: {d} has no ground-truth/ directory")
        for f in sorted(os.listdir(os.path.join(d, "ground-truth"))):
            if f.endswith(".jsonl"):
                set_dir[f[:-6]] = d
    sets = args.sets.split(",") if args.sets else list(set_dir)
    os.makedirs(args.out, exist_ok=True)
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    cowrex = os.path.join(ROOT, "target", "release", "cowrex")
    py, versions = ensure_peers(os.path.join(args.out, "venv"))
    listing = os.path.join(args.out, "pages.jsonl")
    with open(listing, "w") as f:
        for s in sets:
            for p in list_pages(set_dir[s], [s]):
                f.write(json.dumps(p) + "\n")
    peer_script = os.path.join(args.out, "peer.py")
    with open(peer_script, "w") as f:
        f.write(PEER)

    blocks_dir = os.path.join(os.path.dirname(dirs[0]), "blocks")
    labels = ["--blocks", blocks_dir] if os.path.isdir(blocks_dir) else []
    rows = []
    # Leaving one source out needs two sources.
    combined = [("cowrex combined (leave one source out)", ["--loso", *labels])] * (len(sets) > 1)
    if not args.no_cv:
        combined.append((f"cowrex combined (5-fold CV by {args.cv_by})",
                         ["--cv", "5", "--cv-by", args.cv_by, *labels]))
    combined.append(("cowrex combined, shipped model (in-sample)", []))
    for name, eval_args in [
            *[(n, ["--scorer", "combined", *a]) for n, a in combined],
            ("cowrex MLP (threshold 0.5)", ["--scorer", "mlp"]),
            ("cowrex n-gram (10-fold CV by page)", ["--scorer", "ngram", "--cv", "10"]),
            ("cowrex jusText", ["--scorer", "justext"]),
            ("cowrex boilerpipe, Algorithm 2 (number of words)", ["--scorer", "boilerpipe"]),
            ("cowrex boilerpipe, Algorithm 1 (densitometric)", ["--scorer", "boilerpipe-density"]),
            ("cowrex boilerpipe, CleanEval rule", ["--scorer", "boilerpipe-cleaneval"]),
            ("cowrex boilerpipe, largest content", ["--scorer", "boilerpipe-largest"]),
            ("cowrex, all blocks (baseline)", ["--scorer", "all"])]:
        print(f"compare.py: {name}", file=sys.stderr)
        out = os.path.join(args.out, f"cowrex-{len(rows)}.json")
        if args.reuse and os.path.exists(out):
            with open(out) as f:
                rows.append((name, json.load(f), None))
            continue
        rows.append((name, cowrex_eval(cowrex, dirs, sets, eval_args, out), None))
    n_pages = sum(1 for _ in open(listing))
    for tool in TOOLS:
        print(f"compare.py: {tool}", file=sys.stderr)
        texts = os.path.join(args.out, tool + ".jsonl")
        run_file = os.path.join(args.out, tool + ".run.json")
        if args.reuse and os.path.exists(run_file) and os.path.exists(texts) and \
                sum(1 for _ in open(texts)) == n_pages:
            with open(run_file) as f:
                run = json.load(f)
        else:
            out = subprocess.check_output([py, peer_script, tool, listing, texts])
            with open(run_file, "wb") as f:
                f.write(out)
            run = json.loads(out)
        rows.append((tool, cowrex_eval(cowrex, dirs, sets, ["--texts", texts],
                                       os.path.join(args.out, tool + ".json")), run))

    print(f"Pages: {sum(1 for _ in open(listing))} from {', '.join(dirs)} ({', '.join(sets)}); "
          f"peers: {versions}\n")
    gold_sets = [s for s in sets if "f1" in rows[0][1]["sets"][s]]
    if gold_sets:
        print_table(rows, gold_sets)
    print_kinds(rows, gold_sets)
    print_snippets(rows, sets)
    print_favor(rows, sets)
    for peer in ("trafilatura", "trafilatura-no-comments", "rs-trafilatura"):
        if gold_sets:
            paired(rows[0], next(r for r in rows if r[0] == peer), gold_sets)


def print_table(rows, sets):
    """The Markdown table of `rows`: (name, `cowrex eval --json` result, peer run or None)."""
    print("| extractor | " + " | ".join(sets) + " | macro F1 | macro P | macro R | failed | CPU ms/page |")
    print("|---|" + "---|" * (len(sets) + 5))
    for name, r, run in rows:
        cells = [f"{r['sets'][s]['f1']:.4f}" for s in sets]
        m = r["macro"]
        failed = str(run["failed"]) if run else "0"
        cpu = f"{1000 * run['cpu'] / max(1, run['pages']):.1f}" if run else "–"
        print(f"| {name} | " + " | ".join(cells) +
              f" | {m['f1']:.4f} | {m['precision']:.4f} | {m['recall']:.4f} | {failed} | {cpu} |")


def print_kinds(rows, sets):
    """F1 by page type, for each set whose pages have types."""
    for s in sets:
        kinds = sorted(rows[0][1]["sets"][s].get("kinds", {}))
        if not kinds:
            continue
        print(f"\n{s} by page type (pages), F1 (mean over pages):\n")
        counts = rows[0][1]["sets"][s]["kinds"]
        print("| extractor | " + " | ".join(f"{k} ({counts[k]['pages']})" for k in kinds) + " | all |")
        print("|---|" + "---|" * (len(kinds) + 1))
        for name, r, _ in rows:
            cells = [f"{r['sets'][s]['kinds'][k]['f1']:.4f}" for k in kinds]
            print(f"| {name} | " + " | ".join(cells) + f" | {r['sets'][s]['f1']:.4f} |")


def print_snippets(rows, sets, min_snippets=50):
    """Snippet checks for each set whose pages have snippets: precision, recall and F as
    trafilatura counts them and, for sets with snippet gold only, F (and precision) for each
    language with at least `min_snippets` snippets."""
    for s in [s for s in sets if "snippets" in rows[0][1]["sets"][s]]:
        sn = rows[0][1]["sets"][s]["snippets"]
        langs = sorted(((l, v) for l, v in sn.get("by_language", {}).items()
                        if v["with"] + v["without"] >= min_snippets),
                       key=lambda lv: -(lv[1]["with"] + lv[1]["without"]))
        print(f"\n{s}: snippets ({sn['pages']} pages, {sn['with']} snippets a correct extraction "
              f"contains, {sn['without']} it does not), precision / recall / F:\n")
        head = [f"{l} ({v['with'] + v['without']})" for l, v in langs]
        print("| extractor | all | " + " | ".join(head) + (" |" if head else "|"))
        print("|---|---|" + "---|" * len(head))
        cell = lambda v: f"{v['precision']:.3f} / {v['recall']:.3f} / {v['f1']:.3f}"
        for name, r, _ in rows:
            v = r["sets"][s]["snippets"]
            by = v.get("by_language", {})
            cells = [cell(by[l]) if l in by else "–" for l, _ in langs]
            print(f"| {name} | {cell(v)} | " + " | ".join(cells) + (" |" if cells else "|"))


def print_favor(rows, sets, peers=("trafilatura", "trafilatura-no-comments", "rs-trafilatura")):
    """For each combined-model row with a favor dial (`eval --json`'s `favor`: the same scores
    cut at each --favor), precision / recall / F of each set (the snippets of a set with snippet
    gold only) and the macro figures over the sets with gold text, with the peers' beside."""
    def cell(v):
        return f"{v['precision']:.3f} / {v['recall']:.3f} / {v['f1']:.3f}" if v else "–"

    def figures(r, s):
        v = r["sets"][s]
        return v.get("snippets") if "f1" not in v else v
    for name, r, _ in rows:
        dial = r.get("favor")
        if not dial:
            continue
        print(f"\n{name}, cut at each --favor, precision / recall / F:\n")
        print("| favor | " + " | ".join(sets) + " | macro over the sets with gold text |")
        print("|---|" + "---|" * (len(sets) + 1))
        for favor, v in dial.items():
            print(f"| {favor} | " + " | ".join(cell(v.get(s)) for s in sets) +
                  f" | {cell(v.get('macro'))} |")
        for peer_name, pr, _ in rows:
            if peer_name in peers:
                print(f"| {peer_name} | " + " | ".join(cell(figures(pr, s)) for s in sets) +
                      f" | {cell(pr['macro']) if pr['macro'].get('sets') else '–'} |")


def paired(ours, theirs, sets, resamples=10000):
    """Print, per set, how far apart two extractors' page F1s are: the mean difference over the
    same pages, with a 95 % interval from resampling the pages (percentile bootstrap, seeded),
    and the pages each is better on. A set's mean F1 over a few dozen pages moves by the luck
    of which pages it has; the interval says whether a difference in the table outlives that."""
    f1 = lambda r: {p["page_id"]: p["f1"] for p in r[1]["pages"] if "f1" in p}
    a, b = f1(ours), f1(theirs)
    rng = random.Random(0)
    print(f"\n{ours[0]} against {theirs[0]}, page by page:\n")
    print("| set | pages | mean F1 difference | 95 % interval | better | worse |")
    print("|---|---|---|---|---|---|")
    for s in sets:
        d = [a[p["page_id"]] - b[p["page_id"]] for p in ours[1]["pages"] if p["set"] == s]
        means = sorted(sum(rng.choices(d, k=len(d))) / len(d) for _ in range(resamples))
        lo, hi = means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]
        print(f"| {s} | {len(d)} | {sum(d) / len(d):+.4f} | {lo:+.4f} to {hi:+.4f} | "
              f"{sum(x > 0 for x in d)} | {sum(x < 0 for x in d)} |")


if __name__ == "__main__":
    main()
