#!/usr/bin/env python3
"""Page metadata (title, author, publication date) and structure (headings, list items, tables in
Markdown) found by cowrex, trafilatura and rs-trafilatura on WCXB's development split.

Usage: python3 scripts/accuracy/metadata.py [--pages DIR] [--out DIR] [--cowrex PATH] [-j N]
                                   [--split dev|held|all] [--failures title|author|date]
                                   [--limit N] [--types article,forum] [--reuse] [--reuse-cowrex]

--split dev or held takes one half of WCXB-dev, split by site so that the rules can be developed
on one half and their generalisation measured on the other: a page's site is the host of its
gold URL (lower case, without a leading "www."), or its page id when it has no URL; the page is
in the development half when the first byte of SHA-256(site) is even, else in the held-back half
(793 and 704 of the 1,497 rows). Pages of one site are always in the same half. --failures FIELD
prints, after the table, every page of the development half where cowrex's FIELD misses the gold
(page id, URL, gold, and each tool's value); it refuses any other split, so that the held-back
half is only ever measured, never looked at.

The peers are installed as by scripts/accuracy/compare.py (same virtual environment, OUT/venv) and run in
a subprocess inside it, page after page, with the page's URL when the ground truth has one:

  trafilatura     trafilatura.bare_extraction(html, url=url, with_metadata=True) for .title,
                  .author, .date (a Document in 2.x; a dict is read too), and
                  trafilatura.extract(html, url=url, output_format="markdown",
                  include_comments=False, include_tables=True, include_formatting=True,
                  include_links=False) for the Markdown;
  rs-trafilatura  rs_trafilatura.extract(html, url=url, output_markdown=True): .title, .author,
                  .date (ISO 8601) and .content_markdown, all from the one call.

cowrex (target/release/cowrex, --cowrex or COWREX_BIN; not built here) runs as
`cowrex extract --format json [--url URL] -` with the page on stdin, -j pages at a time; the
top-level keys `title`, `author`, `published` (the date) and `markdown` of its JSON are read. A field a tool
never outputs (a key absent on every page) shows as "—"; absent on some pages, it is empty there.

Metrics, over the pages whose gold has the field (the number in brackets):
  title      normalised exact match. Normalising: Unicode NFKC, lower case, every run of
             non-alphanumeric characters (regex [\\W_]+) to one space, strip.
  author     normalised exact match, or the set of words of one name contains the other's (both
             non-empty). A gold string may list several authors, separated by ",", " and ", ";"
             or "|": the prediction matches if it matches the whole string or any one name.
  date       the first 10 characters (YYYY-MM-DD) of prediction and gold are equal.
  headings   pages whose gold Markdown has a heading line (# to ######, then a space): F1 of
             the sets of heading texts (link syntax [text](url) -> text, then normalised, which
             also drops the #'s and emphasis markers), mean over pages; 0 when the tool gives no
             Markdown or no headings.
  list items pages whose gold Markdown has a list item line (-, *, + or 1. / 1) then a space,
             after optional indentation): the same set F1 over the items' texts.
  tables     pages whose gold Markdown has a pipe table (a delimiter row like | --- |): the
             share of them whose output Markdown has a delimiter row too.
Lines in fenced code blocks are not told apart (in gold or output). rs-trafilatura 0.1.1 often
writes a heading's or list item's text on the line after its marker ("##\n    Text", the HTML's
whitespace kept): not a heading or an item in Markdown, so it counts as missing. A page a tool
fails on counts as empty; failures are counted. CPU time: the peers', of the extraction calls
alone (process time; trafilatura's covers both calls); cowrex's, of its processes (user +
system), start-up and model loading included.

Each tool's outputs are cached in OUT/meta-<tool>.jsonl, or OUT/meta-<tool>-<split>.jsonl for one
half (run summary beside it, .run.json); --reuse takes the peers' from the split's cache, else
from the whole set's, when it covers the pages, --reuse-cowrex cowrex's (the CPU time printed is
then the cached run's, over the pages it ran).
Prints a Markdown table, the best value per field in bold, then versions, failures, CPU time.
"""

import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import unicodedata
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
TOOLS = ["cowrex", "trafilatura", "rs-trafilatura"]
FIELDS = ["title", "author", "date", "markdown"]
SET = "wcxb-dev"

# Runs inside the virtual environment: metadata and Markdown of every page with one peer.
PEER = r'''
import gzip, json, logging, sys, time, warnings
warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
tool, listing, out = sys.argv[1], sys.argv[2], sys.argv[3]

if tool == "trafilatura":
    import trafilatura
    def extract(html, url):
        doc = trafilatura.bare_extraction(html, url=url, with_metadata=True)
        get = doc.get if isinstance(doc, dict) else (lambda k: getattr(doc, k, None))
        md = trafilatura.extract(html, url=url, output_format="markdown", include_comments=False,
                                 include_tables=True, include_formatting=True, include_links=False)
        return {"title": get("title"), "author": get("author"), "date": get("date"), "markdown": md}
elif tool == "rs-trafilatura":
    import rs_trafilatura
    def extract(html, url):
        r = rs_trafilatura.extract(html, url=url, output_markdown=True)
        return {"title": r.title, "author": r.author, "date": r.date, "markdown": r.content_markdown}
else:
    sys.exit("unknown tool " + tool)

failed = 0
cpu = 0.0
pages = [json.loads(l) for l in open(listing)]
with open(out, "w") as f:
    for p in pages:
        html = gzip.decompress(open(p["path"], "rb").read()).decode("utf-8", "replace")
        t = time.process_time()
        try:
            rec = extract(html, p["url"])
        except Exception:
            rec, failed = {"failed": True}, failed + 1
        cpu += time.process_time() - t
        f.write(json.dumps({"page_id": p["page_id"], **rec}) + "\n")
print(json.dumps({"failed": failed, "cpu": cpu, "pages": len(pages)}))
'''

HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(\S.*)$", re.M)
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(\S.*)$", re.M)
# A GFM table's delimiter row: cells of dashes (colons for alignment) with at least one pipe.
DELIMITER = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?[ \t]*$", re.M)
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
AUTHOR_SEP = re.compile(r"\s*(?:[,;|]|\band\b)\s*")


def site(g):
    """A gold row's site: its URL's host, lower case, without a leading "www.", else its page id."""
    host = (urllib.parse.urlsplit(g.get("url") or "").hostname or "").lower()
    host = host[4:] if host.startswith("www.") else host
    return host or g["page_id"]


def half(g):
    """"dev" or "held": the half of the set a gold row's site is in (first byte of SHA-256)."""
    return "dev" if hashlib.sha256(site(g).encode()).digest()[0] % 2 == 0 else "held"


def norm(s):
    """NFKC, lower case, runs of non-alphanumerics (and _) to one space, stripped."""
    return re.sub(r"[\W_]+", " ", unicodedata.normalize("NFKC", str(s or "")).lower()).strip()


def author_match(pred, gold):
    """Exact or word-set containment against the whole gold string or any one listed name."""
    p = norm(pred)
    if not p:
        return False
    for g in [gold, *AUTHOR_SEP.split(gold)]:
        g = norm(g)
        if g and (p == g or set(p.split()) <= set(g.split()) or set(g.split()) <= set(p.split())):
            return True
    return False


def items(pattern, markdown):
    """The set of normalised texts of the headings or list items (`pattern`) in `markdown`."""
    return {t for t in (norm(LINK.sub(r"\1", m)) for m in pattern.findall(markdown or "")) if t}


def set_f1(gold, pred):
    return 2 * len(gold & pred) / (len(gold) + len(pred)) if pred else 0.0


def hit(field, g, o):
    """Whether output record `o` matches gold row `g` on `field` (None when `g` has no gold)."""
    if field == "title":
        return norm(o.get("title")) == norm(g["title"]) if norm(g.get("title")) else None
    if field == "author":
        return author_match(o.get("author"), g["author"]) if norm(g.get("author")) else None
    if field == "date":
        return str(o.get("date") or "")[:10] == g["publish_date"][:10] if g.get("publish_date") else None
    raise ValueError(field)


def score(gold_rows, outputs):
    """{field: (pages with gold, the tool's score or None when it never outputs the field)}."""
    has = {k: any(k in o for o in outputs.values()) for k in FIELDS}
    sums = {}

    def add(field, value):
        n, s = sums.get(field, (0, 0.0))
        sums[field] = (n + 1, s + value)

    for g in gold_rows:
        o = outputs.get(g["page_id"], {})
        for field in ("title", "author", "date"):
            h = hit(field, g, o)
            if h is not None:
                add(field, h)
        md, out_md = g.get("markdown") or "", o.get("markdown") or ""
        for field, pattern in (("headings", HEADING), ("list items", LIST_ITEM)):
            gold_set = items(pattern, md)
            if gold_set:
                add(field, set_f1(gold_set, items(pattern, out_md)))
        if DELIMITER.search(md):
            add("tables", bool(DELIMITER.search(out_md)))
    source = {"title": "title", "author": "author", "date": "date"}
    return {f: (n, s / n if has[source.get(f, "markdown")] else None) for f, (n, s) in sums.items()}


def read_outputs(path):
    """A tool's output file as {page_id: record}."""
    outputs = {}
    for line in open(path):
        rec = json.loads(line)
        outputs[rec.pop("page_id")] = rec
    return outputs


def read_cache(path, ids):
    """The cached outputs and run summary of a tool, or None when they do not cover `ids`."""
    if not (os.path.exists(path) and os.path.exists(path + ".run.json")):
        return None
    outputs = read_outputs(path)
    return (outputs, json.load(open(path + ".run.json"))) if ids <= outputs.keys() else None


def write_cache(path, outputs, run):
    with open(path, "w") as f:
        for pid, rec in outputs.items():
            f.write(json.dumps({"page_id": pid, **rec}) + "\n")
    json.dump(run, open(path + ".run.json", "w"))


def cowrex_page(cowrex, page):
    """cowrex's metadata and Markdown for one page (only the keys its JSON has)."""
    cmd = [cowrex, "extract", "--format", "json", *(["--url", page["url"]] if page["url"] else []), "-"]
    try:
        html = gzip.decompress(open(page["path"], "rb").read())
        r = subprocess.run(cmd, input=html, capture_output=True, timeout=300, check=True)
        d = json.loads(r.stdout)
        d["date"] = d.get("published")  # cowrex's publication date
        return {k: d[k] for k in FIELDS if k in d}
    except (subprocess.SubprocessError, ValueError):
        return {"failed": True}


def run_cowrex(cowrex, pages, jobs):
    """Every page through cowrex, `jobs` processes at a time (threads only wait on them)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda p: cowrex_page(cowrex, p), pages))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    outputs = {p["page_id"]: r for p, r in zip(pages, results)}
    return outputs, {"failed": sum("failed" in r for r in results), "cpu": cpu, "pages": len(pages)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", default=os.path.join(ROOT, "..", "shared", "data", "pages"))
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "compare"))
    ap.add_argument("--cowrex", default=os.environ.get("COWREX_BIN",
                                                      os.path.join(ROOT, "target", "release", "cowrex")))
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cowrex processes at a time")
    ap.add_argument("--split", choices=["dev", "held", "all"], default="all",
                    help="the development or the held-back half of the set, by site (default: all)")
    ap.add_argument("--failures", choices=["title", "author", "date"],
                    help="print the pages where cowrex misses FIELD (only with --split dev)")
    ap.add_argument("--limit", type=int, help="only the first N pages (after --split and --types)")
    ap.add_argument("--types", help="comma-separated page types (default: all)")
    ap.add_argument("--reuse", action="store_true", help="take the peers' outputs from the cache")
    ap.add_argument("--reuse-cowrex", action="store_true", help="take cowrex's outputs from the cache")
    args = ap.parse_args()
    if args.failures and args.split != "dev":
        ap.error("--failures prints pages of the development half only (--split dev)")

    pages_dir = os.path.abspath(args.pages)
    truth = os.path.join(pages_dir, "ground-truth", SET + ".jsonl")
    html_dir = os.path.join(pages_dir, "html", SET)
    if not (os.path.exists(truth) and os.path.isdir(html_dir)):
        print(f"metadata.py: {pages_dir} has no ground-truth/{SET}.jsonl or html/{SET}/", file=sys.stderr)
        sys.exit(2)
    if not os.access(args.cowrex, os.X_OK):
        print(f"metadata.py: no cowrex binary at {args.cowrex} (cargo build --release)", file=sys.stderr)
        sys.exit(2)
    gold = [json.loads(line) for line in open(truth) if line.strip()]
    if args.split != "all":
        gold = [g for g in gold if half(g) == args.split]
    if args.types:
        gold = [g for g in gold if g.get("page_type") in args.types.split(",")]
    gold = gold[:args.limit] if args.limit else gold
    # The pages to run, once each (a page id may appear twice in the ground truth).
    pages = {}
    for g in gold:
        path = os.path.join(html_dir, g["page_id"] + ".html.gz")
        if not os.path.exists(path):
            print(f"metadata.py: missing {path}", file=sys.stderr)
            sys.exit(2)
        pages[g["page_id"]] = {"page_id": g["page_id"], "path": path, "url": g.get("url") or None}
    pages = list(pages.values())
    ids = {p["page_id"] for p in pages}

    os.makedirs(args.out, exist_ok=True)
    py, versions = compare.ensure_peers(os.path.join(args.out, "venv"))
    versions = " ".join(v for v in versions.split() if v.split("==")[0] in TOOLS)
    listing = os.path.join(args.out, "meta-pages.jsonl")
    with open(listing, "w") as f:
        for p in pages:
            f.write(json.dumps(p) + "\n")
    peer_script = os.path.join(args.out, "meta-peer.py")
    with open(peer_script, "w") as f:
        f.write(PEER)

    results = {}
    for tool in TOOLS:
        whole = os.path.join(args.out, f"meta-{tool}.jsonl")
        cache = whole if args.split == "all" else os.path.join(args.out, f"meta-{tool}-{args.split}.jsonl")
        reuse = args.reuse_cowrex if tool == "cowrex" else args.reuse
        cached = (read_cache(cache, ids) or read_cache(whole, ids)) if reuse else None
        if cached:
            print(f"metadata.py: {tool} (cached)", file=sys.stderr)
            results[tool] = cached
            continue
        print(f"metadata.py: {tool}, {len(pages)} pages", file=sys.stderr)
        if tool == "cowrex":
            outputs, run = run_cowrex(args.cowrex, pages, args.jobs)
        else:
            run = json.loads(subprocess.check_output([py, peer_script, tool, listing, cache]))
            outputs = read_outputs(cache)
        write_cache(cache, outputs, run)
        results[tool] = (outputs, run)

    scores = {tool: score(gold, outputs) for tool, (outputs, _) in results.items()}
    cowrex_version = subprocess.run([args.cowrex, "--version"], capture_output=True, text=True).stdout.strip()
    which = {"all": "", "dev": " (development half)", "held": " (held-back half)"}[args.split]
    print(f"Pages: {len(gold)} of {SET}{which} ({len(pages)} distinct)"
          f"{' of types ' + args.types if args.types else ''} from {pages_dir}\n")
    print("| field (pages with gold) | " + " | ".join(TOOLS) + " |")
    print("|---|" + "---|" * len(TOOLS))
    for field in ["title", "author", "date", "headings", "list items", "tables"]:
        n = scores["cowrex"].get(field, (0, None))[0]
        values = [scores[t].get(field, (0, None))[1] for t in TOOLS]
        best = max((v for v in values if v is not None), default=None)
        cells = ["—" if v is None else (f"**{v:.3f}**" if v == best else f"{v:.3f}") for v in values]
        print(f"| {field} ({n}) | " + " | ".join(cells) + " |")
    print(f"\nVersions: {cowrex_version}; {versions}\n")
    print("| tool | failed pages | CPU ms/page |")
    print("|---|---|---|")
    for tool in TOOLS:
        outputs, run = results[tool]
        failed = sum("failed" in outputs[i] for i in ids)
        print(f"| {tool} | {failed} | {1000 * run['cpu'] / max(1, run['pages']):.1f} |")
    if args.failures:
        print(f"\ncowrex's {args.failures} misses (development half):")
        key = {"date": "publish_date"}.get(args.failures, args.failures)
        for g in gold:
            outs = {t: results[t][0].get(g["page_id"], {}) for t in TOOLS}
            if hit(args.failures, g, outs["cowrex"]) is False:
                print(f"\n{g['page_id'][:16]} {g.get('page_type')} {g.get('url')}\n  gold: {g[key]!r}")
                for t in TOOLS:
                    print(f"  {t}: {outs[t].get(args.failures)!r}")


if __name__ == "__main__":
    main()
