#!/usr/bin/env python3
"""Write the fuzzers' seed corpora to fuzz/corpus/<target>/ (deterministic; standard library only).

The seeds are made here, not copied from ../shared/data: small WARC files (plain, gzipped per
record, damaged), HTTP response blocks with charsets, HTML pages in both tokenizers' hard
cases, shingle lines and manifests. The fuzzers grow the corpora from them
(fuzz/corpus/ is not committed; see fuzz/README.md).

Run from the repository root: python3 scripts/gen/fuzz_seeds.py
"""
import gzip
import io
import os

OUT = os.path.join("fuzz", "corpus")

PAGE = (b"<!DOCTYPE html><html><head><title>A &amp; B | Site</title><meta charset=\"utf-8\">"
        b"<meta name=\"author\" content=\"Jane Doe\"><script type=\"application/ld+json\">"
        b"{\"@type\":\"Article\",\"headline\":\"A & B\",\"datePublished\":\"2024-05-01\"}</script></head>"
        b"<body><nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/x\">News</a></li></ul></nav>"
        b"<article><h1>A &amp; B</h1><p>The river festival returns to the old harbour this summer, "
        b"with music, food and boat races. Write to a@b.org or see https://x.org/a?b=1 #fest</p>"
        b"<pre>def f(x):\n    return x</pre><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
        b"<ul><li>one</li><li>two<ul><li>three</li></ul></li></ul><blockquote>quoted</blockquote>"
        b"</article><footer>&copy; 2024 Example</footer></body></html>")

HARD_PAGES = [
    b"<p>unclosed <b>bold <i>both</p> after",
    b"<div title='stray \"quote>text</div><p>next</p>",
    b"<script>if (a < b) { document.write('<p>x</p>') }</script><p>after</p>",
    b"<!-- comment <p>not</p> --><p>yes</p><![CDATA[ x ]]>",
    b"<table><tr><td><table><tr><td>nested</td></tr></table></td></tr></table>",
    b"<p>" + b"<span>" * 50 + b"deep" + b"</span>" * 50 + b"</p>",
    b"<P CLASS=x ID=y>upper &#x41;&#65;&bogus;&amp;amp; &#xFFFF; &#0;</P>",
    b"\xef\xbb\xbf<html><body>BOM page</body></html>",
    b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\"></head><body>\x93\x8c\x8b\x9e</body></html>",
    b"<textarea><p>raw</p></textarea><title>t<b>x</b></title><xmp><b></xmp>",
]


def warc_record(wtype, uri, block, n, extra=b""):
    head = (b"WARC/1.1\r\nWARC-Type: %s\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n"
            b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\nWARC-Target-URI: %s\r\n"
            b"Content-Type: application/http; msgtype=response\r\n%sContent-Length: %d\r\n\r\n"
            % (wtype, n, uri, extra, len(block)))
    return head + block + b"\r\n\r\n"


def member(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def http(body, ctype=b"text/html; charset=UTF-8", extra=b""):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\n%sContent-Length: %d\r\n\r\n"
            % (ctype, extra, len(body))) + body


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    records = [
        warc_record(b"warcinfo", b"", b"software: cowrex seeds\r\n", 0),
        warc_record(b"response", b"https://example.org/a", http(PAGE), 1),
        warc_record(b"response", b"https://example.org/b", http(HARD_PAGES[0]), 2,
                    b"WARC-Truncated: length\r\n"),
        warc_record(b"response", b"https://example.org/c",
                    http(gzip.compress(PAGE, mtime=0), extra=b"Content-Encoding: gzip\r\n"), 3),
        warc_record(b"revisit", b"https://example.org/a", b"", 4),
    ]
    plain = b"".join(records)
    gz = b"".join(member(r) for r in records)
    write("warc", "plain", plain)
    write("warc", "gzip", gz)
    write("warc", "gzip-whole", member(plain))
    write("warc", "cut", gz[: len(gz) - 40])
    write("warc", "junk-between", member(records[0]) + b"junk\x00\xff" * 10 + member(records[1]))
    write("warc", "wrong-length", records[1].replace(b"Content-Length: ", b"Content-Length: 1", 1) + records[2])
    write("warc", "empty", b"")

    write("http", "utf8", http(PAGE))
    write("http", "latin1", http("Café Müller".encode("latin-1"), b"text/html; charset=ISO-8859-1"))
    write("http", "sjis-meta", http(HARD_PAGES[8], b"text/html"))
    write("http", "utf16", http("<p>é</p>".encode("utf-16"), b"text/html; charset=utf-16"))
    write("http", "bad-status", b"HTTP/1.1 abc\r\nContent-Type: ;;;charset=\"\r\n\r\nbody")
    write("http", "no-header", PAGE)

    for i, page in enumerate([PAGE] + HARD_PAGES):
        for syntax in (0, 1):
            write("segment", "page-%d-%d" % (i, syntax), bytes([syntax]) + page)
        write("writers", "page-%d" % i, b"https://example.org/p%d?a=1&b=\"2\"\n" % i + page)
    write("writers", "odd-url", b"\x01<&>'\"\xef\xbf\xbe url\n" + PAGE)

    line = b"%020d %s %010d" % (12345678901234567890, b"0123456789abcdef0123456789abcdef" + b"0001", 42)
    write("shingles", "lines", line + b"\n" + line.replace(b"1", b"x", 1) + b"\n\n" + line[:-1])

    write("manifest", "paths", b"crawl-data/CC/segments/1/warc/X.warc.gz\n/data/in/a/b.warc\n"
          b"file:///data/in/c.warc.gz\nhttps://data.example.org/crawl/d/e.warc.gz\n../up.warc\n"
          b"https://other.example/%2e%2e/x.warc.gz\n  \n.gz\n")
    write("manifest", "gzipped", gzip.compress(b"a.warc.gz\nb.warc.gz\n", mtime=0))


if __name__ == "__main__":
    main()
