#!/usr/bin/env python3
"""Throughput benchmark: cowrex vs. fastwarc + resiliparse on the same Common-Crawl-shaped WARC.

Builds target/bench/pages.warc.gz from the pages in ../shared/data/pages that have HTML (3,899;
one gzip member per record; request, response and metadata record per page, as in Common
Crawl), then runs, in one go and each in its own process:

  * cowrex process -j1 (the whole pipeline: read, decode, segment, features, MLP, XML writing)
  * fastwarc + resiliparse: extract_plain_text(main_content=True) on every HTML response

  * cowrex process -j2, for the scaling on two cores (wall time of -j1 over -j2), and how many
    cores each keeps busy (CPU time over wall time)

and reports documents per CPU-second, MB/s of uncompressed HTML per CPU-second and peak RSS.
Peak memory is also measured on the WARC repeated three times, to show it does not grow with
the input. The peers are installed from PyPI into target/bench/venv on first use.

The tools take turns within each repeat, so a busy spell of a shared machine hits them alike;
the best CPU time of each counts and the median is shown beside it. The headline is the ratio
of resiliparse's CPU seconds to cowrex's within each repeat (a pair of adjacent runs), with its
min/median/max over the repeats. `--baseline BIN` adds another cowrex binary (say, a build of
the previous commit) to the same turns, to measure a change on a noisy machine.

The same ratio is measured on a second WARC, built the same way from one of the four older sets
(`--older cleaneval` by default; l3s-gn1, dragnet, google-trends-2017, `all` for the four, or
`none` to skip it): cowrex process -j1 and resiliparse on it take their turns in the same repeats,
and its ratio is printed beside the first one. Older, smaller pages favour resiliparse.

`--floor` adds cowrex with every optional part of the work turned off (FLOOR: texrex's MLP alone
instead of the combined model, no n-gram scores, no shingles; the segmenter, the texrex
features, the language identification, jusText, boilerpipe and the gzipped XML remain) to the turns on
both WARCs: how close any speed-up of the optional parts alone could bring cowrex to a ratio.

Start-up: `cowrex extract` on a small page (a short article with a menu, a link, an e-mail
address and a footer), wall time of 21 runs, min/median/max.

Usage: python3 scripts/bench/bench.py [--repeat N] [--baseline BIN] [--older SET] [--floor]
"""
import argparse
import glob
import gzip
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = os.path.join(ROOT, "..", "shared", "data", "pages", "html")
OUT = os.path.join(ROOT, "target", "bench")
VENV = os.path.join(OUT, "venv")
FLOOR = ["--scorer", "mlp", "--lang", "en", "--ngram", "off", "--no-shingles"]
OLDER = ["cleaneval", "l3s-gn1", "dragnet", "google-trends-2017"]

PEER = r'''
import sys
from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import detect_encoding, bytes_to_str
docs = 0
chars = 0
with open(sys.argv[1], "rb") as f:
    for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
        body = rec.reader.read()
        html = bytes_to_str(body, detect_encoding(body))
        chars += len(extract_plain_text(html, main_content=True))
        docs += 1
print(docs, chars)
'''

SMALL_PAGE = """<!DOCTYPE html><html><head><title>Village fete raises funds | Riverside News</title>
<meta name="author" content="Jane Doe"></head>
<body><nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/contact">Contact</a></nav>
<article><h1>Village fete raises funds</h1><p>The annual village fete raised more than two
thousand pounds for the new playground on Saturday, organisers said. Visitors enjoyed a tombola,
a dog show and cakes baked by the local school.</p>
<p>Details are on https://example.com/fete and questions can go to jane.doe@example.com. #fete</p>
</article><footer>Copyright 2025 Riverside News. All rights reserved.</footer></body></html>
"""


def member(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6) as g:
        g.write(data)
    return buf.getvalue()


def record(wtype, uri, block, n, ctype):
    head = ("WARC/1.1\r\nWARC-Type: %s\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n"
            "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\nWARC-Target-URI: %s\r\n"
            "WARC-IP-Address: 192.0.2.1\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n") % (wtype, n, uri, ctype, len(block))
    return head.encode() + block + b"\r\n\r\n"


def build_warc(path, sets, root=PAGES):
    """Write a WARC of the pages root/<set>/*.html* of every set; return (pages, HTML bytes)."""
    files = sorted(f for s in sets for f in glob.glob(os.path.join(root, s, "*.html*")))
    if not files:
        sys.exit("no pages in %s: the benchmark needs ../shared/data" % root)
    html_bytes = 0
    with open(path, "wb") as out:
        info = b"software: cowrex bench\r\n"
        out.write(member(record("warcinfo", "", info, 0, "application/warc-fields")))
        for i, f in enumerate(files):
            with open(f, "rb") as fh:
                body = fh.read()
            if f.endswith(".gz"):
                body = gzip.decompress(body)
            html_bytes += len(body)
            uri = "https://bench.example/%s/%s" % (os.path.basename(os.path.dirname(f)), os.path.basename(f))
            req = ("GET %s HTTP/1.1\r\nHost: bench.example\r\n\r\n" % uri).encode()
            out.write(member(record("request", uri, req, 3 * i + 1, "application/http; msgtype=request")))
            resp = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: %d\r\n\r\n" % len(body)).encode() + body
            out.write(member(record("response", uri, resp, 3 * i + 2, "application/http; msgtype=response")))
            meta = b"fetchTimeMs: 100\r\n"
            out.write(member(record("metadata", uri, meta, 3 * i + 3, "application/warc-fields")))
    return len(files), html_bytes


def spread(a, b, field=0):
    """'min X, median Y, max Z' of a[i][field] / b[i][field] over the repeats (pairs of turns)."""
    r = sorted(x[field] / y[field] for x, y in zip(a, b))
    return "min %.2f, median %.2f, max %.2f" % (r[0], statistics.median(r), r[-1])


def run_measured(cmd):
    """Run cmd (stderr discarded); return (user+sys CPU seconds, wall seconds, peak RSS MiB)."""
    t0 = time.time()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    return ru.ru_utime + ru.ru_stime, time.time() - t0, ru.ru_maxrss / 1024.0


def ensure_peers():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    try:
        subprocess.check_call([py, "-c", "import fastwarc, resiliparse"], stderr=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        subprocess.check_call([py, "-m", "pip", "install", "--quiet", "fastwarc", "resiliparse"])
    return py


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs per tool; the best CPU time counts")
    ap.add_argument("--baseline", metavar="BIN", help="another cowrex binary to run in the same turns")
    ap.add_argument("--older", default="cleaneval", choices=OLDER + ["all", "none"],
                    help="older set for the second WARC (default cleaneval)")
    ap.add_argument("--floor", action="store_true",
                    help="also run cowrex with every optional part off (%s)" % " ".join(FLOOR))
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    warc = os.path.join(OUT, "pages.warc.gz")
    pages, html_bytes = build_warc(warc, ["*"])
    older = None
    if args.older != "none":
        older_sets = OLDER if args.older == "all" else [args.older]
        older = os.path.join(OUT, "older-%s.warc.gz" % args.older)
        older_pages, older_bytes = build_warc(older, older_sets)
    warc3 = os.path.join(OUT, "pages3.warc.gz")
    # Copied in pieces: the children's peak RSS includes this process's, which a fork hands
    # down to them (Linux keeps the larger of the two across exec).
    with open(warc3, "wb") as f:
        for _ in range(3):
            with open(warc, "rb") as src:
                shutil.copyfileobj(src, f)
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    cowrex = os.path.join(ROOT, "target", "release", "cowrex")
    py = ensure_peers()
    peer_script = os.path.join(OUT, "peer.py")
    with open(peer_script, "w") as f:
        f.write(PEER)

    def process(binary, out, jobs=1, path=warc, extra=()):
        return [binary, "process", "--no-progress", "--force", "-j%d" % jobs, path, "-o", os.path.join(OUT, out), *extra]

    floor = "cowrex process -j1, floor (%s)" % " ".join(FLOOR)

    tools = [("cowrex process -j1", process(cowrex, "out"))]
    if args.baseline:
        tools.append(("cowrex process -j1, baseline %s" % args.baseline, process(os.path.abspath(args.baseline), "out-baseline")))
    if args.floor:
        tools.append((floor, process(cowrex, "out-floor", extra=FLOOR)))
    peer = "fastwarc + resiliparse (main_content=True)"
    tools.append((peer, [py, peer_script, warc]))
    j2 = "cowrex process -j2"
    tools.append((j2, process(cowrex, "out-j2", jobs=2)))
    main_tools = len(tools)
    if older:
        o1 = "cowrex process -j1 on %s" % args.older
        opeer = "fastwarc + resiliparse on %s" % args.older
        tools.append((o1, process(cowrex, "out-older", path=older)))
        if args.baseline:
            tools.append(("cowrex process -j1 on %s, baseline" % args.older,
                          process(os.path.abspath(args.baseline), "out-older-baseline", path=older)))
        if args.floor:
            tools.append((floor + " on " + args.older, process(cowrex, "out-older-floor", path=older, extra=FLOOR)))
        tools.append((opeer, [py, peer_script, older]))
    runs = {name: [] for name, _ in tools}
    for _ in range(args.repeat):
        for name, cmd in tools:
            runs[name].append(run_measured(cmd))
    stats = json.load(open(os.path.join(OUT, "out", "pages.stats.json")))
    # Documents = HTML responses processed (those without any text are counted too, as
    # resiliparse returns an empty string for them).
    docs = stats["records_by_type"]["response"]
    big = run_measured([cowrex, "process", "--no-progress", "--force", "-j1", warc3, "-o", os.path.join(OUT, "out3")])

    mb = html_bytes / 1e6
    print("Input: %d pages, %.1f MB of HTML, WARC %.1f MB (gzip per record)" % (pages, mb, os.path.getsize(warc) / 1e6))
    # The peers are installed unpinned: their versions say which ones a ratio is against.
    versions = subprocess.check_output(
        [py, "-c", "import importlib.metadata as m; print(', '.join(p + ' ' + m.version(p) for p in ('fastwarc', 'resiliparse')))"],
        text=True).strip()
    print("Peers: %s\n" % versions)
    print("| tool | documents | CPU s | median CPU s | docs per CPU-second | HTML MB per CPU-second | wall s | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _ in tools[:main_tools]:  # the older WARC's turns are printed below
        cpu, wall, rss = min(runs[name])
        median = statistics.median(r[0] for r in runs[name])
        n = docs if name.startswith("cowrex") else pages
        print("| %s | %d | %.2f | %.2f | %.0f | %.1f | %.2f | %.0f |" % (name, n, cpu, median, n / cpu, mb / cpu, wall, rss))
    print("\nPeak RSS of cowrex -j1 on the WARC repeated 3 times: %.0f MiB (once: %.0f MiB)" % (big[2], min(runs[tools[0][0]])[2]))
    j1 = tools[0][0]
    print("\nresiliparse CPU s / cowrex -j1 CPU s, per repeat (%d): %s"
          % (len(runs[j1]), spread(runs[peer], runs[j1])))
    if args.floor:
        print("resiliparse CPU s / cowrex floor CPU s, per repeat: %s" % spread(runs[peer], runs[floor]))
    if older:
        print("On %s (%d pages, %.1f MB of HTML): best CPU s resiliparse %.2f, cowrex -j1 %.2f; "
              "resiliparse / cowrex per repeat (%d): %s"
              % (args.older, older_pages, older_bytes / 1e6, min(runs[opeer])[0], min(runs[o1])[0],
                 len(runs[o1]), spread(runs[opeer], runs[o1])))
        if args.floor:
            f = runs[floor + " on " + args.older]
            print("On %s: best CPU s cowrex floor %.2f; resiliparse / cowrex floor per repeat: %s"
                  % (args.older, min(f)[0], spread(runs[opeer], f)))
        if args.baseline:
            b = runs["cowrex process -j1 on %s, baseline" % args.older]
            print("On %s: baseline CPU s / cowrex CPU s per repeat: %s" % (args.older, spread(b, runs[o1])))
    print("cowrex -j2 scaling (wall -j1 / wall -j2, per repeat): %s" % spread(runs[j1], runs[j2], field=1))
    # The reader and writer threads run beside -j1's worker, so -j1 already keeps more than
    # one core busy; on 2 cores the scaling cannot exceed 2 over -j1's cores.
    busy1 = statistics.median(r[0] / r[1] for r in runs[j1])
    busy2 = statistics.median(r[0] / r[1] for r in runs[j2])
    cores = len(os.sched_getaffinity(0))
    bound = "; the most -j2 can gain on 2 cores: %.2f" % (2 / busy1) if cores == 2 else ""
    print("Cores kept busy (CPU s / wall s, median): -j1 %.2f, -j2 %.2f (of %d)%s"
          % (busy1, busy2, cores, bound))
    page = os.path.join(OUT, "small.html")
    with open(page, "w") as f:
        f.write(SMALL_PAGE)
    walls = sorted(run_measured([cowrex, "extract", page])[1] * 1000 for _ in range(21))
    print("Start-up: cowrex extract on a small page (%d bytes), wall ms over %d runs: min %.1f, median %.1f, max %.1f"
          % (len(SMALL_PAGE), len(walls), walls[0], statistics.median(walls), walls[-1]))


if __name__ == "__main__":
    main()
