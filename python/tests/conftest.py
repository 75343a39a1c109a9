"""Shared helpers: the repository, the `cowrex` binary the package is compared with, and the
project's shared data (tests that need it skip with a message when it is absent)."""

import gzip
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared" / "data"


def cowrex_bin() -> str:
    path = os.environ.get("COWREX_BIN", str(REPO / "target" / "release" / "cowrex"))
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: build it with `cargo build --release` or set COWREX_BIN")
    return path


def run_cli(*args, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([cowrex_bin(), *map(str, args)], input=stdin, capture_output=True)


def warc_records(path) -> list:
    """The records of a `.warc.gz` with one gzip member per record, each decompressed."""
    import zlib

    data, records = pathlib.Path(path).read_bytes(), []
    while data:
        d = zlib.decompressobj(31)
        records.append(d.decompress(data))
        data = d.unused_data
    return records


def zstd_warc(path, records, dictionary=None) -> None:
    """Write `records` as a `.warc.zst`: a zstd frame per record, after the IIPC's dictionary
    frame when a dictionary (a `zstandard.ZstdCompressionDict`) is given."""
    import struct

    import zstandard

    compressor = zstandard.ZstdCompressor(write_checksum=True, dict_data=dictionary)
    head = b""
    if dictionary is not None:
        raw = dictionary.as_bytes()
        head = b"\x5d\x2a\x4d\x18" + struct.pack("<I", len(raw)) + raw
    pathlib.Path(path).write_bytes(head + b"".join(compressor.compress(r) for r in records))


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
