"""The checks of scripts/check/test_wheel.sh: the installed wheel against the workspace build.

    python wheel_check.py cli COWREX DIR      run the command line's cases with COWREX, into DIR
    python wheel_check.py compare REF DIR     the cases of DIR give what REF's did
    python wheel_check.py api REF DIR         cowrex.extract, cowrex.read_warc and the datatrove
                                              steps give what REF's command line wrote
    python wheel_check.py signals COWREX DIR  `process` stops cleanly on SIGTERM, SIGUSR1, SIGINT

`cli` runs with the workspace's binary (target/release/cowrex) for REF and with the wheel's
console script for DIR; the other commands run in the wheel's virtual environment. Only the
standard library is used, and datatrove for the datatrove steps.
"""

import gzip
import http.server
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = REPO / "fixtures" / "sample.warc.gz"
PAGES = [REPO / "fixtures" / "cjk-ja.html", REPO / "fixtures" / "cjk-zh.html"]

# name: (arguments, standard input); each runs in DIR/NAME with the sample given by its path.
CASES = {
    "help": (["--help"], None),
    "version": (["--version"], None),
    "process-help": (["process", "--help"], None),
    "bad-flag": (["process", "--bogus"], None),
    "no-command": ([], None),
    "missing-input": (["process", "--no-progress", "missing.warc.gz", "-o", "out"], None),
    "process": (["process", "--progress", "jsonl", str(SAMPLE), "-o", "out", "--format", "xml,jsonl,vrt"], None),
    "extract": (["extract", str(PAGES[0]), "--url", "https://example.org/ja", "--format", "tsv"], None),
    "extract-stdin": (["extract", "-", "--format", "json"], PAGES[1].read_bytes()),
}


def fail(msg):
    print(f"wheel_check: FAILED: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def cli(cowrex, out):
    out = pathlib.Path(out)
    for name, (args, stdin) in CASES.items():
        d = out / name
        d.mkdir(parents=True)
        r = subprocess.run([cowrex, *args], input=stdin, capture_output=True, cwd=d)
        (d / "code").write_text(f"{r.returncode}\n")
        (d / "stdout").write_bytes(r.stdout)
        (d / "stderr").write_bytes(r.stderr)


def normal_stderr(b):
    """Standard error without what depends on time: rates and durations."""
    lines = []
    for line in b.decode().splitlines():
        if line.startswith("{"):
            j = json.loads(line)
            for k in ("elapsed_s", "docs_per_s", "mb_per_s"):
                j.pop(k, None)
            lines.append(json.dumps(j, sort_keys=True))
        else:
            lines.append(re.sub(r"[0-9.]+ (s|docs/s)\b", r"N \1", line))
    return lines


def normal_file(p):
    """A run's file as bytes, with the times taken out of the statistics."""
    if p.name.endswith(".stats.json"):
        j = json.loads(p.read_text())
        j.pop("time_ms", None)
        return json.dumps(j, sort_keys=True).encode()
    return p.read_bytes()


def compare(ref, got):
    ref, got = pathlib.Path(ref), pathlib.Path(got)
    for name in CASES:
        r, g = ref / name, got / name
        for what in ("code", "stdout"):
            if (r / what).read_bytes() != (g / what).read_bytes():
                fail(f"{name}: {what} differs:\n{(r / what).read_bytes()[:2000]!r}\n{(g / what).read_bytes()[:2000]!r}")
        if normal_stderr((r / "stderr").read_bytes()) != normal_stderr((g / "stderr").read_bytes()):
            fail(f"{name}: stderr differs:\n{(r / 'stderr').read_text()}\n{(g / 'stderr').read_text()}")
        def written(d):
            return sorted(p.relative_to(d) for p in d.rglob("*") if p.is_file() and p.parent != d)

        files = written(r)
        if files != written(g):
            fail(f"{name}: other files: {files}")
        for f in files:
            if normal_file(r / f) != normal_file(g / f):
                fail(f"{name}: {f} differs")
    out = sorted(p.name for p in (got / "process" / "out").iterdir())
    print(f"wheel_check: {len(CASES)} command lines give the workspace binary's exit codes, output and files ({', '.join(out)})", flush=True)


def api(ref, out):
    import cowrex

    ref, out = pathlib.Path(ref), pathlib.Path(out)
    where = pathlib.Path(cowrex.__file__).resolve()
    if REPO / "python" in where.parents:
        fail(f"cowrex is imported from the repository ({where}), not from the wheel")
    # The licence is in the wheel's metadata.
    import importlib.metadata
    meta = importlib.metadata.metadata("cowrex")
    licence = meta.get("License-Expression") or meta.get("License")
    if licence != "MIT OR Apache-2.0":
        fail(f"the wheel's metadata says licence {licence!r}, not MIT OR Apache-2.0")
    # extract: the text of `cowrex extract` (the blocks and scores of --format tsv).
    ja = cowrex.extract(PAGES[0].read_bytes(), url="https://example.org/ja")
    tsv = (ref / "extract" / "stdout").read_text().splitlines()
    kept = [line.split("\t") for line in tsv[1:]]
    if len(kept) != len(ja.blocks) or [b.text for b in ja.blocks] != [row[-1] for row in kept]:
        fail("cowrex.extract's blocks are not `cowrex extract --format tsv`'s")
    zh = cowrex.extract(PAGES[1].read_bytes())
    cli_zh = json.loads((ref / "extract-stdin" / "stdout").read_bytes())
    if zh.title != cli_zh["title"] or [b.text for b in zh.blocks] != [b["text"] for b in cli_zh["blocks"]]:
        fail("cowrex.extract's document is not `cowrex extract --format json`'s")
    if [b.bpv for b in zh.blocks] != [b["bpv"] for b in cli_zh["blocks"]]:
        fail("cowrex.extract's scores are not `cowrex extract --format json`'s")
    # read_warc: the JSONL lines of `process`, at 1 and 2 threads.
    expected = gzip.decompress((ref / "process" / "out" / "sample.jsonl.gz").read_bytes()).decode().splitlines()
    for threads in (1, 2):
        got = [d.to_json() for d in cowrex.read_warc(str(SAMPLE), threads=threads)]
        if got != expected:
            fail(f"read_warc (threads={threads}) differs from process's JSONL")
    print(f"wheel_check: cowrex {cowrex.__version__} from {where.parent}: extract and read_warc ({len(expected)} documents) give the workspace binary's output", flush=True)
    # The datatrove step: WarcReader -> CowrexExtractor -> JsonlWriter.
    import contextlib
    import io

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    from cowrex.datatrove import CowrexExtractor, CowrexWarcReader

    from loguru import logger

    logger.remove()  # datatrove's log, which goes to the standard error it found on import,
    log = io.StringIO()  # and the log of the run, shown if it fails

    def pipeline(name, *steps):
        """The documents `steps -> JsonlWriter` writes (the run's log shown if it fails)."""
        try:
            with contextlib.redirect_stderr(log), contextlib.redirect_stdout(log):
                LocalPipelineExecutor(
                    pipeline=[*steps, JsonlWriter(str(out / name), output_filename="docs.jsonl.gz")],
                    tasks=1,
                    logging_dir=str(out / f"{name}-logs"),
                ).run()
        except BaseException:
            print(log.getvalue(), file=sys.stderr)
            raise
        with gzip.open(out / name / "docs.jsonl.gz", "rt") as f:
            return [json.loads(line) for line in f]

    reader = WarcReader(str(SAMPLE.parent), glob_pattern=SAMPLE.name)
    docs = pipeline("datatrove", reader, CowrexExtractor(keep_blocks=True))
    got = {d["id"]: d for d in docs}
    mine = [d for d in cowrex.read_warc(str(SAMPLE)) if d.text]
    # datatrove's reader also passes pages that cowrex skips (an HTTP 404 here); every
    # document cowrex finds is among datatrove's, with its language and, for a UTF-8 page
    # (datatrove hands the page over decoded), its text.
    for ref_doc in mine:
        d = got.get(ref_doc.record_id)
        if d is None:
            fail(f"datatrove's output lacks {ref_doc.record_id}")
        if ref_doc.charset.lower() == "utf-8" and d["text"] != ref_doc.text:
            fail(f"datatrove's text of {ref_doc.record_id} is not process's")
        if d["metadata"]["cowrex"]["language"] != ref_doc.language:
            fail(f"datatrove's language of {ref_doc.record_id} is not process's")
    print(f"wheel_check: the datatrove step (WarcReader -> CowrexExtractor -> JsonlWriter) gives process's texts ({len(mine)} documents)", flush=True)
    # The reader step: CowrexWarcReader -> JsonlWriter gives process's documents, in order.
    docs = pipeline("datatrove-reader", CowrexWarcReader(str(SAMPLE.parent), glob_pattern=SAMPLE.name))
    if [(d["id"], d["text"]) for d in docs] != [(d.record_id, d.text) for d in mine]:
        fail("CowrexWarcReader's documents are not process's")
    print(f"wheel_check: the datatrove reader step (CowrexWarcReader -> JsonlWriter) gives process's documents ({len(docs)})", flush=True)


class Stall(http.server.BaseHTTPRequestHandler):
    """Serves the sample's first third, then stalls: a download in the middle of its input."""

    requests = 0

    def do_GET(self):
        Stall.requests += 1
        data = SAMPLE.read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 3])
        self.wfile.flush()
        time.sleep(30)

    def log_message(self, *args):
        pass


def signals(cowrex, out):
    out = pathlib.Path(out)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stall)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/stalled.warc.gz"
    for sig in (signal.SIGTERM, signal.SIGUSR1, signal.SIGINT):
        d = out / sig.name
        Stall.requests = 0
        # As a shell starts it in the background: Python's console script must not take the
        # signals over.
        p = subprocess.Popen([cowrex, "process", "--no-progress", str(SAMPLE), url, "-o", str(d)],
                             stderr=subprocess.PIPE)
        t = time.monotonic()
        while (not (d / "sample.done.json").exists() or not Stall.requests) and time.monotonic() - t < 60:
            time.sleep(0.02)
        time.sleep(0.3)
        t = time.monotonic()
        p.send_signal(sig)
        _, err = p.communicate(timeout=20)
        waited = time.monotonic() - t
        err = err.decode()
        if p.returncode != 75 or "stopped by a signal" not in err or "Traceback" in err:
            fail(f"{sig.name}: exit code {p.returncode}, stderr:\n{err}")
        if waited > 10:
            fail(f"{sig.name}: stopped after {waited:.1f} s")
        left = sorted(f.name for f in d.iterdir())
        if not left or not all(n.startswith("sample.") for n in left):
            fail(f"{sig.name}: left {left}")
        print(f"wheel_check: {sig.name} stops `process` cleanly in {waited:.2f} s (exit code 75, the finished input kept: {len(left)} files)", flush=True)
    server.shutdown()


if __name__ == "__main__":
    {"cli": cli, "compare": compare, "api": api, "signals": signals}[sys.argv[1]](*sys.argv[2:])
