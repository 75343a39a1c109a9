"""The Python API against the command line: same text, same documents, errors, threads."""

import gzip
import json
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import cowrex
from conftest import FIXTURES, PAGES, run_cli, shared_pages


def cli_text(tmp_path, html: bytes, url: str = "") -> str:
    page = tmp_path / "page.html"
    page.write_bytes(html)
    out = run_cli("extract", page, "--url", url)
    assert out.returncode == 0, out.stderr
    return out.stdout.decode()


def cli_blocks(tmp_path, html: bytes):
    page = tmp_path / "page.html"
    page.write_bytes(html)
    out = run_cli("extract", "--format", "json", page)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_extract_gives_the_cli_text_and_blocks(tmp_path, name):
    html = PAGES[name]
    doc = cowrex.extract(html, url="https://example.org/x")
    expected = cli_text(tmp_path, html, "https://example.org/x")
    assert doc.text + ("\n" if doc.text else "") == expected
    cli = cli_blocks(tmp_path, html)
    assert [b.idx for b in doc.blocks] == [b["idx"] for b in cli["blocks"]]
    for b, c in zip(doc.blocks, cli["blocks"]):
        assert b.text == c["text"]
        assert b.bpv == pytest.approx(c["bpv"], abs=1e-6)
        assert b.bpc == c["bpc"]
        assert b.boilerplate == c["boilerplate"]
        kind = ("kind", "list", "depth", "row", "col")
        language = ("language", "language_score")
        others = ("idx", "bpv", "bpc", "boilerplate", "text", *kind, *language)
        assert b.scores == {k: v for k, v in c.items() if k not in others}
        assert [getattr(b, k) for k in kind + language] == [c.get(k) for k in kind + language]
    assert doc.title == cli["title"]


def test_languages_of_the_page_and_of_its_blocks():
    # An English article with a German paragraph: the page is English, the paragraph German.
    html = (
        "<html><body><h1>Council approves the budget</h1><p>The council approved the new budget "
        "for the city's schools on Tuesday evening, after a long debate about salaries.</p>"
        "<p>Der Stadtrat hat am Dienstagabend den neuen Haushalt für die Schulen beschlossen.</p>"
        "<p>Repairs of the old buildings will start in the spring, the mayor said.</p></body></html>"
    )
    doc = cowrex.extract(html)
    assert (doc.language, doc.language_iso639_1, doc.language_script) == ("eng", "en", "Latn")
    assert 0.5 < doc.language_score <= 1.0
    langs = [b.language for b in doc.blocks]
    assert langs[1:] == ["eng", "deu", "eng"]
    assert langs[0] is None, "a block of fewer than 30 letters has no language of its own"
    assert all(0.0 <= b.language_score <= 1.0 for b in doc.blocks if b.language)
    assert cowrex.extract("<p>12 345</p>").language is None


def test_a_lid_model_of_ones_own(tmp_path):
    model = FIXTURES / "lid" / "tiny-softmax.ftz"
    html = "<p>простно овен ратоко нили зать простно овен ратоко</p>"
    doc = cowrex.Extractor(lid_model=str(model)).extract(html)
    assert (doc.language, doc.language_script) == ("rus", "Cyrl")
    # A model that cannot be read is the command line's error, an OSError here.
    missing = tmp_path / "missing.ftz"
    with pytest.raises(OSError) as e:
        cowrex.Extractor(lid_model=missing)
    cli = run_cli("extract", "--lid-model", missing, FIXTURES / "cjk-ja.html")
    assert "cowrex: " + str(e.value) == cli.stderr.decode().strip()


def test_str_and_bytes_give_the_same_document():
    html = PAGES["article"]
    a = cowrex.extract(html)
    b = cowrex.extract(html.decode())
    assert a.text == b.text and a.text
    assert "Ducks are water birds" in a.text
    assert "All rights reserved" not in a.text
    assert a.title == "Ducks of the river"
    assert a.language == "eng"
    assert all(isinstance(b.bpv, float) for b in a.blocks)


def test_a_str_is_read_as_the_text_it_is_whatever_its_meta_charset_says():
    html = PAGES["latin1"]  # <meta charset='iso-8859-1'>, Latin-1 bytes
    from_bytes = cowrex.extract(html)
    from_str = cowrex.extract(html.decode("latin-1"))
    assert "Le café est une boisson" in from_bytes.text
    assert from_str.text == from_bytes.text
    assert from_str.title == "Café"


def test_extract_on_shared_pages_gives_the_cli_text(tmp_path):
    pages = shared_pages(4)
    extractor = cowrex.Extractor()
    for name, html in pages:
        text = extractor.extract(html).text
        assert text + ("\n" if text else "") == cli_text(tmp_path, html), name


def test_options_change_the_decision(tmp_path):
    html = PAGES["article"]
    page = tmp_path / "page.html"
    page.write_bytes(html)
    for options, args in [
        ({"scorer": "justext"}, ["--scorer", "justext"]),
        ({"scorer": "mlp", "threshold": 0.3}, ["--scorer", "mlp", "--threshold", "0.3"]),
        ({"ngram": "off", "lang": "de"}, ["--ngram", "off", "--lang", "de"]),
    ]:
        out = run_cli("extract", "--format", "json", *args, page)
        cli = json.loads(out.stdout)
        doc = cowrex.Extractor(**options).extract(html)
        assert [b.bpv for b in doc.blocks] == pytest.approx([b["bpv"] for b in cli["blocks"]], abs=1e-6), options
        assert doc.text == cowrex.extract(html, **options).text
    assert cowrex.Extractor(ngram="off").extract(html).blocks[0].ngram is None


BLOG = b"""<html><head><title>Planting tomatoes</title></head><body><article><h1>Planting tomatoes</h1>
<p>Tomatoes want warm soil, so wait until the nights stay above ten degrees before you plant them out. Dig a deep hole and
bury the stem up to the first leaves: the buried stem grows roots and the plant stands firmer in the wind.</p>
<p>Water the plants deeply twice a week rather than a little every day, and mulch the soil to keep it moist.</p></article>
<div id="comments" class="comments-area"><h2 class="comments-title">2 Comments</h2><ol class="comment-list">
<li class="comment"><div class="comment-author vcard"><b class="fn">Mary</b> <span class="says">says:</span></div>
<div class="comment-metadata"><time>March 3, 2021 at 7:52 am</time></div>
<div class="comment-content"><p>Thanks for this, I always wondered why my plants fell over in the wind.</p></div>
<div class="reply"><a class="comment-reply-link">Reply</a></div></li>
<li class="comment"><div class="comment-author vcard"><b class="fn">Tom</b> <span class="says">says:</span></div>
<div class="comment-metadata"><time>March 4, 2021 at 9:15 pm</time></div>
<div class="comment-content"><p>Do you pinch out the side shoots on bush varieties too, or only on the tall ones?</p></div>
<div class="reply"><a class="comment-reply-link">Reply</a></div></li></ol></div></body></html>"""


def test_comments_are_a_kind_and_one_switch(tmp_path):
    page = tmp_path / "blog.html"
    page.write_bytes(BLOG)
    dropped = cowrex.extract(BLOG)
    kinds = {b.text[:12]: b.kind for b in dropped.blocks}
    assert kinds["Thanks for t"] == "comment" and kinds["Tomatoes wan"] == "p"
    assert "Thanks for this" not in dropped.text and "Water the plants" in dropped.text
    kept = cowrex.extract(BLOG, comments="keep")
    assert "Thanks for this" in kept.text and "Water the plants" in kept.text
    assert [b.bpv for b in kept.blocks] == [b.bpv for b in dropped.blocks]
    # The same as the command line's, block by block.
    for option in ("drop", "keep"):
        cli = json.loads(run_cli("extract", "--format", "json", "--comments", option, page).stdout)
        doc = cowrex.extract(BLOG, comments=option)
        assert [b["kind"] for b in cli["blocks"]] == [b.kind for b in doc.blocks]
        assert [b["boilerplate"] for b in cli["blocks"]] == [b.boilerplate for b in doc.blocks]


def test_read_warc_reads_every_shared_archive_as_process_does(tmp_path):
    # The web archives of ../shared/data/warc (WARC files of several crawlers, ARC files, pages
    # as resource records, damaged and cut files): the documents and fates of `process`; a WAT
    # or WET file, which `process` fails, raises its error.
    from conftest import SHARED

    files = sorted((SHARED / "warc").glob("*.gz")) if (SHARED / "warc").is_dir() else []
    if not files:
        pytest.skip(f"SKIPPED: {SHARED / 'warc'} is absent; this test needs ../shared/data")
    kinds = set()
    for f in files:
        out = run_cli("process", "--no-progress", "--format", "jsonl", f, "-o", tmp_path / f.name)
        if out.returncode == 1 and (".wat." in f.name or ".wet." in f.name):
            why = out.stderr.decode().splitlines()[0].split(": ", 2)[2]
            with pytest.raises(OSError, match=re.escape(why)):
                list(cowrex.read_warc(f))
            continue
        assert out.returncode == 0, out.stderr
        [jsonl] = (tmp_path / f.name).glob("*.jsonl.gz")
        [stats] = (tmp_path / f.name).glob("*.stats.json")
        expected = gzip.decompress(jsonl.read_bytes()).decode().splitlines()
        stats = json.loads(stats.read_text())
        reader = cowrex.read_warc(f, threads=2)
        assert [d.to_json() for d in reader] == expected, f.name
        assert reader.stats["fates"] == stats["fates"], f.name
        kinds.add(".arc" in f.name)
    assert kinds == {True, False}, "ARC and WARC files both read"


def test_read_warc_gives_the_documents_process_writes(tmp_path):
    out = run_cli("process", "--no-progress", "--format", "jsonl", FIXTURES / "sample.warc.gz", "-o", tmp_path)
    assert out.returncode == 0, out.stderr
    import gzip

    expected = gzip.decompress((tmp_path / "sample.jsonl.gz").read_bytes()).decode().splitlines()
    for threads in (1, 3):
        reader = cowrex.read_warc(FIXTURES / "sample.warc.gz", threads=threads)
        got = [d.to_json() for d in reader]
        assert got == expected, threads
        stats = json.loads((tmp_path / "sample.stats.json").read_text())
        assert reader.stats["records"] == stats["records"]
        assert reader.stats["documents"] == stats["documents"]
    docs = list(cowrex.read_warc(str(FIXTURES / "sample.warc.gz")))
    first = docs[0]
    assert first.to_dict() == json.loads(expected[0])
    assert first.url.startswith("http") and first.record_id and first.warc_date
    assert first.warc_file == "sample.warc.gz" and first.length > 0
    assert sum(d.duplicate_of is not None for d in docs) == sum('"duplicate_of"' in line for line in expected)


def test_read_warc_takes_paths_str_and_stdin():
    a = [d.id for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")]
    b = [d.id for d in cowrex.Extractor().read_warc(str(FIXTURES / "sample.warc.gz"), threads=2)]
    assert a == b and a
    script = "import cowrex, sys; print('\\n'.join(d.id for d in cowrex.read_warc('-')))"
    out = subprocess.run([sys.executable, "-c", script], input=(FIXTURES / "sample.warc.gz").read_bytes(),
                         capture_output=True, check=True)
    assert out.stdout.decode().split() == a
    # A manifest line under a base: its warc_file is the line, as process --manifest writes it.
    docs = list(cowrex.read_warc("fixtures/sample.warc.gz", input_base=str(FIXTURES.parent)))
    assert [d.id for d in docs] == a
    assert {d.warc_file for d in docs} == {"fixtures/sample.warc.gz"}


def test_read_warc_reads_arc_files_as_their_warc_twin():
    # fixtures/sample-arc.arc.gz holds the pages of sample.warc.gz as an ARC file.
    def texts(path):
        return [(d.url, d.text) for d in cowrex.read_warc(path) if d.text]

    arc = texts(FIXTURES / "sample-arc.arc.gz")
    assert len(arc) == 6
    assert arc == texts(FIXTURES / "sample.warc.gz")
    docs = list(cowrex.read_warc(FIXTURES / "sample-arc.arc.gz"))
    assert {d.warc_file for d in docs} == {"sample-arc.arc.gz"}
    assert all(d.record_id is None for d in docs)


def test_read_warc_reads_zstd_warcs_as_their_gzip_twin(tmp_path):
    zstandard = pytest.importorskip("zstandard", reason="SKIPPED: zstandard is not installed")
    from conftest import warc_records, zstd_warc

    records = warc_records(FIXTURES / "sample.warc.gz")
    expected = [(d.id, d.text) for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")]
    dictionary = zstandard.train_dictionary(2048, records * 8)
    for name, d in (("plain", None), ("dict", dictionary)):
        path = tmp_path / f"{name}.warc.zst"
        zstd_warc(path, records, d)
        reader = cowrex.read_warc(path)
        assert [(doc.id, doc.text) for doc in reader] == expected, name
        assert reader.stats["records"] == len(records)


def test_damaged_warc_is_read_past_its_damage(tmp_path):
    out = run_cli("process", "--no-progress", "--format", "jsonl", FIXTURES / "broken.warc.gz", "-o", tmp_path)
    stats = json.loads((tmp_path / "broken.stats.json").read_text())
    reader = cowrex.read_warc(FIXTURES / "broken.warc.gz")
    docs = list(reader)
    assert len(docs) == stats["documents"]
    assert reader.stats["fates"] == stats["fates"]
    assert reader.stats["stream_errors"] == stats["stream_errors"]


def test_a_warc_cut_in_its_last_record_marks_the_document(tmp_path):
    def record(n):
        html = "<html><body>" + "".join(f"<p>Paragraph {i} of page {n} says a little.</p>" for i in range(300))
        http = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}".encode()
        head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.org/{n}\r\n"
                f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(http)}\r\n\r\n")
        return gzip.compress(head.encode() + http + b"\r\n\r\n")

    first, last = record(1), record(2)
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(first + last[: len(last) * 3 // 4])
    reader = cowrex.read_warc(cut)
    docs = list(reader)
    assert [d.url for d in docs] == ["https://example.org/1", "https://example.org/2"]
    assert [d.truncated for d in docs] == [None, "end_of_input"]
    assert docs[-1].to_dict()["provenance"]["truncated"] == "end_of_input"
    assert 0 < len(docs[-1].text) < len(docs[0].text)
    assert reader.stats["stream_errors"] == {"truncated_record": 1}


def test_the_text_is_what_the_page_shows_and_masking_is_an_option():
    html = (
        "<body><h2>Contact</h2><p>Write to jane.doe@example.com or see https://example.com/a<br>"
        "Use the &lt;div&gt; element</p><ol><li>one</li></ol><pre>def f(x):\n    return x</pre></body>"
    )
    blocks = cowrex.extract(html, threshold=1.0).blocks
    assert [b.text for b in blocks] == [
        "Contact",
        "Write to jane.doe@example.com or see https://example.com/a\nUse the <div> element",
        "one",
        "def f(x):\n    return x",
    ]
    assert [(b.kind, b.list, b.depth) for b in blocks] == [("h2", None, None), ("p", None, None), ("li", "ol", 1), ("pre", None, None)]
    masked = cowrex.extract(html, threshold=1.0, mask=["email", "uri"]).blocks[1].text
    assert masked == "Write to emailblank or see uriblank\nUse the <div> element"
    texrex = cowrex.extract(html, threshold=1.0, texrex_text=True).blocks[1].text
    assert texrex == "Write to emailblank or see uriblank Use the element"
    with pytest.raises(ValueError, match="invalid value 'phone' for mask"):
        cowrex.extract(html, mask=["phone"])
    with pytest.raises(ValueError, match="exclude each other"):
        cowrex.extract(html, mask=["email"], texrex_text=True)


def test_the_document_has_the_pages_metadata():
    html = (
        '<html lang="de-AT"><head><title>Regen in Wien - Die Zeitung</title>'
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Regen in Wien",'
        ' "author": {"@type": "Person", "name": "Eva Berg"}, "datePublished": "2024-06-01",'
        ' "dateModified": "2024-06-02T09:00:00Z", "publisher": {"name": "Die Zeitung"}}</script>'
        '</head><body><h1>Regen in Wien</h1><p>Es regnet in Wien seit drei Tagen ohne Pause.</p></body></html>'
    )
    doc = cowrex.extract(html, url="https://zeitung.example/2024/06/01/regen")
    assert (doc.title, doc.author, doc.published, doc.modified, doc.sitename, doc.declared_language) == (
        "Regen in Wien",
        "Eva Berg",
        "2024-06-01",
        "2024-06-02T09:00:00+00:00",
        "Die Zeitung",
        "de-AT",
    )
    assert doc.canonical is None
    assert doc.to_dict()["published"] == "2024-06-01"
    # The date is the publication date, else the modification date.
    assert doc.date == "2024-06-01"
    modified_only = html.replace('"datePublished": "2024-06-01",', "")
    assert cowrex.extract(modified_only).date == "2024-06-02T09:00:00+00:00"
    assert cowrex.extract("<p>No date on this page at all.</p>").date is None


def test_markdown_has_the_structure_of_the_content(tmp_path):
    html = (
        "<body><h2>Rivers</h2><p>The <b>longest</b> river is the <a href='/nile'>Nile</a>.</p>"
        "<ol><li>Nile</li><li>Amazon</li></ol><table><tr><th>River</th><th>km</th></tr>"
        "<tr><td>Nile</td><td>6650</td></tr></table></body>"
    )
    doc = cowrex.extract(html, url="https://rivers.example/list", threshold=1.0)
    expected = (
        "## Rivers\n\nThe **longest** river is the [Nile](https://rivers.example/nile).\n\n"
        "1. Nile\n2. Amazon\n\n| River | km |\n| --- | --- |\n| Nile | 6650 |\n"
    )
    assert doc.markdown == expected
    assert doc.to_markdown(links=False) == expected.replace("[Nile](https://rivers.example/nile)", "Nile")
    page = tmp_path / "page.html"
    page.write_text(html)
    out = run_cli("extract", "--format", "markdown", "--threshold", "1", "--url", "https://rivers.example/list", page)
    assert out.stdout.decode() == expected


def test_to_html_is_the_inspectors_page(tmp_path):
    html = PAGES["article"]
    doc = cowrex.extract(html)
    page = doc.to_html(gold="Ducks are water birds")
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert page.count('<li class="block') == len(doc.blocks)
    assert "precision" in page and "precision" not in doc.to_html()
    # Each block names what moved the combined model's score (as the CLI's page does).
    assert "|why: " in page
    src = tmp_path / "page.html"
    src.write_bytes(html)
    out = tmp_path / "inspect.html"
    assert run_cli("inspect", src, "-o", out).returncode == 0
    cli_page = out.read_text()
    assert cli_page.count('<li class="block') == len(doc.blocks)
    assert cli_page.count("|why: ") == page.count("|why: ") > 0


def test_caps_are_options():
    html = "<html><body>" + "<div>" * 500 + "<p>some text here</p>" * 400 + "</body></html>"
    whole = cowrex.extract(html)
    cut = cowrex.extract(html, max_work=100_000)
    assert 0 < len(cut.blocks) < len(whole.blocks) == 400
    assert len(cowrex.extract(html, max_blocks=10).blocks) <= 10
    with pytest.raises(TypeError):
        cowrex.extract(html, max_work="lots")


def test_bad_input_gives_an_empty_document_not_an_exception():
    for html in (b"", b"\x00" * 1000, bytes(range(256)) * 10, "   ", b"<html><body></body></html>"):
        doc = cowrex.extract(html)
        assert doc.blocks == [] and doc.text == ""
        assert doc.to_dict()["text"] == ""


def test_errors_are_python_exceptions_with_the_cli_messages(tmp_path):
    with pytest.raises(ValueError, match="invalid value 'nope' for scorer"):
        cowrex.Extractor(scorer="nope")
    with pytest.raises(TypeError, match="unknown option 'colour'"):
        cowrex.Extractor(colour="red")
    with pytest.raises(TypeError, match="str or bytes"):
        cowrex.extract(42)
    with pytest.raises(ValueError, match="needs n-gram scoring"):
        cowrex.Extractor(scorer="ngram", ngram="off")
    # A threshold outside 0-1: the library's one check, the command line's message.
    cli = run_cli("extract", "--threshold", "1.5", FIXTURES / "sample.warc.gz")
    assert cli.returncode == 2
    for make in (lambda: cowrex.Extractor(threshold=1.5), lambda: cowrex.extract("<p>x</p>", threshold=-1)):
        with pytest.raises(ValueError) as e:
            make()
        assert "invalid value '" in str(e.value) and "for threshold: a share between 0 and 1" in str(e.value)
    with pytest.raises(ValueError) as e:
        cowrex.Extractor(threshold=1.5)
    assert "cowrex: " + str(e.value) == cli.stderr.decode().strip()
    # A wrong name for a named option: the library's one list and message.
    for option, value in [("favor", "fast"), ("comments", "hide"), ("lang", "xx"), ("ngram", "on"), ("scorer", "gpt"), ("dup_blocks", "hide")]:
        cli = run_cli("process", f"--{option.replace('_', '-')}", value, "-o", tmp_path / "x", FIXTURES / "sample.warc.gz")
        assert cli.returncode == 2
        with pytest.raises(ValueError) as e:
            cowrex.Extractor(**{option: value})
        assert str(e.value).startswith(f"invalid value '{value}' for {option}: expected one of ")
        assert cli.stderr.decode() == f"error: {e.value}\n"
    assert not (tmp_path / "x").exists()
    missing = tmp_path / "missing.warc.gz"
    cli = run_cli("process", "--no-progress", missing, "-o", tmp_path / "out")
    message = cli.stderr.decode().splitlines()[0].removeprefix("cowrex: ")
    assert message.startswith("cannot read")
    with pytest.raises(OSError) as e:
        cowrex.read_warc(missing)
    assert str(e.value) == message
    model = tmp_path / "missing.gbt"
    cli = run_cli("extract", "--combined-model", model, FIXTURES / "sample.warc.gz")
    with pytest.raises(OSError) as e:
        cowrex.Extractor(combined_model=model)
    assert "cowrex: " + str(e.value) == cli.stderr.decode().strip()
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"this is not a warc file\n")
    cli = run_cli("process", "--no-progress", junk, "-o", tmp_path / "out")
    assert cli.returncode == 1
    with pytest.raises(OSError) as e:
        list(cowrex.read_warc(junk))
    assert f"cowrex: {e.value}" in cli.stderr.decode()
    bad = tmp_path / "bad.gbt"
    bad.write_text("not a model")
    with pytest.raises(ValueError, match="bad.gbt"):
        cowrex.Extractor(combined_model=bad)


def test_a_thread_pool_gives_the_sequential_results():
    pages = [html for html in PAGES.values()] * 8
    extractor = cowrex.Extractor()
    sequential = [extractor.extract(p).text for p in pages]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda p: extractor.extract(p).text, pages))
    assert parallel == sequential
    with ThreadPoolExecutor(4) as pool:
        module = list(pool.map(lambda p: cowrex.extract(p).text, pages))
    assert module == sequential


def test_the_gil_is_released_while_rust_works():
    # With a long switch interval, another Python thread runs during a call only if the call
    # releases the GIL.
    page = b"<html><body>" + b"".join(
        b"<div class='c%d'><p>Paragraph %d of a long page with enough words to be scored as text.</p></div>" % (i % 50, i)
        for i in range(20000)
    ) + b"</body></html>"
    extractor = cowrex.Extractor()
    count = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(5.0)
    t = threading.Thread(target=spin)
    try:
        t.start()
        before = count[0]
        extractor.extract(page)
        during = count[0] - before
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    assert during > 1000, during


def test_documents_and_blocks_print_usefully():
    doc = cowrex.extract(PAGES["article"], url="https://example.org/ducks")
    assert "example.org/ducks" in repr(doc)
    assert repr(doc.blocks[0]).startswith("<cowrex.Block idx=")
    assert doc.host == "example.org"
    assert doc.threshold > 0


def test_the_package_holds_the_command_line(tmp_path):
    # `python -m cowrex` is the console script `cowrex`: the binary's Rust code, in the package.
    for args in (["--help"], ["--version"], ["process", "--bogus"], ["extract", FIXTURES / "cjk-zh.html"]):
        mine = subprocess.run([sys.executable, "-m", "cowrex", *map(str, args)], capture_output=True)
        binary = run_cli(*args)
        assert (mine.returncode, mine.stdout, mine.stderr) == (binary.returncode, binary.stdout, binary.stderr), args
    out = subprocess.run([sys.executable, "-m", "cowrex", "process", "--no-progress", "--format", "jsonl",
                          FIXTURES / "sample.warc.gz", "-o", tmp_path / "mine"], capture_output=True)
    assert out.returncode == 0, out.stderr
    assert run_cli("process", "--no-progress", "--format", "jsonl", FIXTURES / "sample.warc.gz",
                   "-o", tmp_path / "binary").returncode == 0
    for name in ("sample.jsonl.gz", "sample.shingles.gz"):
        assert (tmp_path / "mine" / name).read_bytes() == (tmp_path / "binary" / name).read_bytes()


def test_read_warc_streams_http_urls():
    import functools
    import http.server

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIXTURES))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/sample.warc.gz"
        remote = [d.to_json() for d in cowrex.read_warc(url, threads=2)]
        with pytest.raises(OSError):
            list(cowrex.read_warc(url.replace("sample", "missing")))
    finally:
        server.shutdown()
    local = [d.to_json() for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")]
    assert [json.loads(x)["id"] for x in remote] == [json.loads(x)["id"] for x in local]
    assert [json.loads(x)["text"] for x in remote] == [json.loads(x)["text"] for x in local]


@pytest.mark.skipif(
    not os.environ.get("COWREX_TOY"),
    reason="needs the package built with the toy-detector feature (scripts/test.sh does)",
)
def test_a_toy_detector_is_one_file_and_one_registry_line(tmp_path):
    """The toy detector (src/classify/toy.rs, one registry line) has its scores in Python,
    its decision as a scorer and its model file as a keyword argument."""

    def toy(text, weight=1.0):
        return weight * sum(c.isalpha() for c in text) / max(len(text), 1)

    html = PAGES["article"]
    doc = cowrex.extract(html)
    assert doc.blocks
    for b in doc.blocks:
        assert b.scores["toy"] == pytest.approx(toy(b.text), abs=1e-4)
    weight = tmp_path / "weight.toy"
    weight.write_text("0.5")
    half = cowrex.Extractor(toy_model=weight, scorer="toy").extract(html)
    for b in half.blocks:
        assert b.scores["toy"] == pytest.approx(toy(b.text, 0.5), abs=1e-4)
        assert b.bpv == pytest.approx(1 - toy(b.text, 0.5), abs=1e-3)
    with pytest.raises(TypeError, match="toy_model"):
        cowrex.Extractor(toy_modell=weight)
    weight.write_text("heavy")
    with pytest.raises(ValueError, match="not a number"):
        cowrex.Extractor(toy_model=weight)
