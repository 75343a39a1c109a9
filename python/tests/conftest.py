"""Shared helpers: the repository, the `cowrex` binary the package is compared with, and the
project's shared data (tests that need it skip with a message when it is absent)."""

import gzip
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared" / "data"

sys.path.insert(0, str(REPO / "scripts" / "check"))
sys.path.insert(0, str(REPO / "scripts" / "gen"))
import s3_server  # noqa: E402  (scripts/check/s3_server.py)
from zstd_warc import warc_records, zstd_warc  # noqa: E402,F401  (scripts/gen/zstd_warc.py)


# A slow test (minutes): skipped in a quick run (`sh scripts/test.sh --quick` sets COWREX_QUICK);
# the full run (`sh scripts/test.sh`, CI) runs it.
slow = pytest.mark.skipif(
    bool(os.environ.get("COWREX_QUICK")), reason="quick run: `sh scripts/test.sh` runs it"
)


def cowrex_bin() -> str:
    path = os.environ.get("COWREX_BIN", str(REPO / "target" / "release" / "cowrex"))
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: build it with `cargo build --release` or set COWREX_BIN")
    return path


def run_cli(*args, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([cowrex_bin(), *map(str, args)], input=stdin, capture_output=True)


def shared_pages(limit_per_set: int):
    """Up to `limit_per_set` gold pages (gzipped HTML) of each set in ../shared/data."""
    root = SHARED / "pages" / "html"
    if not root.exists():
        pytest.skip(f"SKIPPED: {root} is absent; this test needs ../shared/data")
    pages = []
    for s in sorted(p for p in root.iterdir() if p.is_dir()):
        for f in sorted(s.iterdir())[:limit_per_set]:
            pages.append((f"{s.name}/{f.name}", gzip.decompress(f.read_bytes())))
    return pages


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    """The endpoint of a real S3-compatible server on loopback (scripts/check/s3_server.py: SeaweedFS,
    as tests/s3.rs uses it), with bucket ``bkt`` (private) holding ``crawl/sample.warc.gz``.
    Without the server the tests that use it skip, unless ``COWREX_S3_TESTS=1``."""
    try:
        weed = s3_server.weed_binary()
    except OSError as e:
        if os.environ.get("COWREX_S3_TESTS") == "1":
            pytest.fail(f"COWREX_S3_TESTS=1 but the S3 server could not be installed: {e}")
        pytest.skip(f"SKIPPED: no S3 server ({e})")
    server = s3_server.Server(tmp_path_factory.mktemp("s3"), weed)
    try:
        server.put("crawl/sample.warc.gz", (FIXTURES / "sample.warc.gz").read_bytes())
        yield server.endpoint
    finally:
        server.stop()


@pytest.fixture
def aws(s3, monkeypatch):
    """The environment of a client of `s3` with the tester's credentials."""
    for k in list(os.environ):
        if k.startswith("AWS_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("HOME", "/nonexistent")
    monkeypatch.setenv("AWS_ENDPOINT_URL", s3)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.SECRET)
    return monkeypatch


PAGES = {
    "article": b"""<!DOCTYPE html><html><head><title>Ducks of the river</title>
<meta name="author" content="Jane Doe"></head><body>
<nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About us</a></nav>
<article><h1>Ducks of the river</h1>
<p>Ducks are water birds of the family Anatidae. They live on rivers, lakes and the sea, and they
eat plants, insects and small fish. Most species migrate in large flocks in autumn.</p>
<p>The mallard is the best known of them: the male has a green head and a white ring around its
neck, while the female is brown. Both quack, though only the female loudly.</p>
<p>Ducks are the smaller of the waterfowl; the larger ones are called geese and swans.</p>
</article>
<aside><h3>Related</h3><ul><li><a href="/geese">Geese</a></li><li><a href="/swans">Swans</a></li></ul></aside>
<footer>Copyright 2026 River News. All rights reserved. <a href="/privacy">Privacy</a></footer>
</body></html>""",
    "latin1": "<html><head><meta charset='iso-8859-1'><title>Caf\u00e9</title></head><body><p>"
    "Le caf\u00e9 est une boisson obtenue \u00e0 partir des graines torr\u00e9fi\u00e9es du caf\u00e9ier, "
    "un arbuste du genre Coffea. Elle est servie chaude ou froide dans le monde entier.</p></body></html>".encode("latin-1"),
    "http_head": b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
    b"<html><body><p>A page saved with its HTTP head, as crawlers store it: the head gives the charset, "
    b"the body the text that a reader sees on the screen.</p></body></html>",
    "repeats": b"<html><body>" + b"<p>Subscribe to our newsletter for weekly updates on everything.</p>" * 3
    + b"<p>A single paragraph of running text between the repeated boxes, long enough to be content.</p></body></html>",
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "no_text": b"<html><head><script>var x = 1;</script></head><body><img src='a.png'></body></html>",
    "malformed": b"<html><body><div><p>Unclosed <b>tags <i>everywhere <table><tr><td>cell text that goes on"
    b" for a while to look like content</div></p></html>",
}
