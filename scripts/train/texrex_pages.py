#!/usr/bin/env python3
"""Convert texrex's annotated training documents into the pages layout of ../shared/data/pages.

Reads ../shared/data/texrex-boilerplate/training_data/LANG/{html,annotated}/NNNN.*.gpg (GPG-encrypted
as published; needs `gpg`) and writes, under OUT (default target/texrex-pages, never into the
project's committed files: the HTML is research-only):

    OUT/html/texrex-LANG/LANG-NNNN.html.gz  the page in UTF-8, its crawl and HTTP headers cut off
    OUT/ground-truth/texrex-LANG.jsonl      {"page_id": "LANG-NNNN", "plaintext", "source", "url"}

The gold text of a page is the text of the blocks texrex's annotators marked as content
(label 0), one per line, in page order, without the placeholders texrex put in place of URIs,
e-mail addresses and hashtags (which cowrex's texts keep, as texrex's do). Pages are converted to
UTF-8 (see `to_utf8`).

Usage: python3 scripts/train/texrex_pages.py [OUT]
"""
import gzip
import html
import json
import pathlib
import re
import subprocess
import sys

LANGS = ["de", "en", "fr", "sv"]
# What texrex put in place of URIs, e-mail addresses and hashtags: not words of the page.
BLANKS = {"uriblank", "emailblank", "hashtagblank"}
# An annotated block's first line: its label (0 content, 1 boilerplate; 51 German blocks have 2,
# which is not content either), a tab, its text.
LABEL = re.compile(r"\d\t")


def decrypt(path):
    return subprocess.run(
        ["gpg", "--batch", "--quiet", "--passphrase", "eiruC", "-d", str(path)],
        check=True, capture_output=True).stdout


def split_page(raw):
    """(url, HTTP header text, body) of a texrex crawl file."""
    first, _, rest = raw.partition(b"\n")
    url = first.split(b" ", 1)[0].decode("ascii", "replace")
    m = re.search(rb"\r?\n\r?\n", rest)
    if not m:
        return url, rest.decode("latin-1"), b""
    return url, rest[:m.start()].decode("latin-1"), rest[m.end():]


def to_utf8(header, body):
    """The page in UTF-8, a `<meta charset="utf-8">` before it: decoded as a browser would, by
    the charset its HTTP header or else its own meta tag names (invalid bytes replaced), else as
    UTF-8 when it is valid UTF-8, else as windows-1252."""
    declared = [m.group(1) for m in [re.search(r"charset=[\"']?([\w.:-]+)", header, re.I),
                                     re.search(rb"<meta[^>]+charset=[\"']?([\w.:-]+)", body[:4096], re.I)]
                if m]
    for name in declared:
        name = name.decode("ascii") if isinstance(name, bytes) else name
        try:
            text = body.decode(name, "replace")
            break
        except LookupError:
            continue
    else:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = body.decode("windows-1252", "replace")
    return b'<meta charset="utf-8">' + text.encode("utf-8")


def gold_text(annotated, lang):
    """The text of the blocks an annotated file marks as content (label 0)."""
    lines = []
    label = None
    for line in annotated.decode("utf-8", "replace").splitlines():
        if LABEL.match(line):
            label, text = line[0], line[2:]
        else:
            text = line  # a block's text may span lines
        if label != "0":
            continue
        text = text.strip()
        if lang == "de" and len(text) >= 2 and text[0] == '"' and text[-1] == '"':
            text = text[1:-1]  # the German files quote every block
        text = " ".join(w for w in html.unescape(text).split() if w not in BLANKS)
        if text:
            lines.append(text)
    return "\n".join(lines)


SOURCE = pathlib.Path(__file__).resolve().parents[3] / "shared/data/texrex-boilerplate/training_data"


def convert(out, src=SOURCE):
    """Write the pages of every language under `out`; returns {set: pages}."""
    out = pathlib.Path(out)
    (out / "ground-truth").mkdir(parents=True, exist_ok=True)
    counts = {}
    for lang in LANGS:
        name = f"texrex-{lang}"
        html_dir = out / "html" / name
        html_dir.mkdir(parents=True, exist_ok=True)
        rows = []
        for page in sorted((src / lang / "html").glob("*.html.gpg")):
            stem = page.name.split(".")[0]
            annotated = src / lang / "annotated" / f"{stem}.txt.gpg"
            if not annotated.is_file():
                continue
            page_id = f"{lang}-{stem}"
            url, header, body = split_page(decrypt(page))
            (html_dir / f"{page_id}.html.gz").write_bytes(gzip.compress(to_utf8(header, body), mtime=0))
            rows.append({"page_id": page_id, "plaintext": gold_text(decrypt(annotated), lang),
                         "source": [name, stem], "url": url})
        with open(out / "ground-truth" / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        counts[name] = len(rows)
    return counts


def main():
    if not SOURCE.is_dir():
        sys.exit(f"texrex_pages.py: needs {SOURCE}")
    root = pathlib.Path(__file__).resolve().parents[2]
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target/texrex-pages"
    for name, n in convert(out).items():
        print(f"{name}: {n} pages", file=sys.stderr)


if __name__ == "__main__":
    main()
