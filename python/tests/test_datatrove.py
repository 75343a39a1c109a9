"""cowrex's datatrove steps in real pipelines: WarcReader -> CowrexExtractor -> JsonlWriter, and
CowrexWarcReader -> JsonlWriter."""

import gzip
import json
import os

import pytest

import cowrex
from conftest import FIXTURES

datatrove = pytest.importorskip(
    "datatrove", reason='SKIPPED: datatrove is not installed (pip install "datatrove[io]")'
)

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.extractors import Trafilatura  # noqa: E402,F401  (the step it replaces)
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from cowrex.datatrove import CowrexExtractor, CowrexWarcReader  # noqa: E402


def run_pipeline(tmp_path, step, glob_pattern="sample.warc.gz"):
    """The documents of the pipeline WarcReader -> step (or steps) -> JsonlWriter."""
    out = tmp_path / "out"
    steps = step if isinstance(step, list) else [step]
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(FIXTURES), glob_pattern=glob_pattern),
            *steps,
            JsonlWriter(str(out), output_filename="docs.jsonl.gz"),
        ],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    with gzip.open(out / "docs.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def test_cowrex_extractor_in_a_datatrove_pipeline(tmp_path):
    docs = run_pipeline(tmp_path, CowrexExtractor(keep_blocks=True))
    # The documents cowrex finds in the same WARC, by record id (datatrove's document id).
    mine = {d.record_id: d for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")}
    assert len(docs) > 0
    assert len(docs) >= len([d for d in mine.values() if d.text]) * 0.9
    same = 0
    for d in docs:
        assert d["text"], "documents without content are dropped"
        meta = d["metadata"]["cowrex"]
        kept = [b["text"] for b in meta["blocks"] if b["bpv"] <= meta["bpt"]]
        assert kept == d["text"].split("\n")
        assert all(0.0 <= b["bpv"] <= 1.0 for b in meta["blocks"])
        assert meta["language"]
        ref = mine.get(d["id"])
        if ref is not None and ref.charset.lower() == "utf-8":
            # datatrove hands over decoded text: the same as cowrex's own reading for UTF-8 pages.
            assert d["text"] == ref.text, d["id"]
            same += 1
    assert same > 0


def test_the_language_is_in_the_metadata_as_datatroves_language_filter_writes_it(tmp_path):
    # metadata["language"] (lid.176's label: the ISO 639-1 code) and "language_score", so that
    # the filters after it in a FineWeb-style pipeline work unchanged.
    from datatrove.pipeline.filters import LambdaFilter

    keep = LambdaFilter(lambda doc: doc.metadata["language"] == "en" and doc.metadata["language_score"] >= 0.65)
    docs = run_pipeline(tmp_path, [CowrexExtractor(), keep])
    assert docs
    mine = {d.record_id: d for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")}
    same = 0
    for d in docs:
        meta = d["metadata"]
        assert (meta["language"], meta["language_script"]) == ("en", "Latn")
        assert 0.65 <= meta["language_score"] <= 1.0
        ref = mine.get(d["id"])
        if ref is not None and ref.charset.lower() == "utf-8":
            # The text datatrove hands over is cowrex's own reading for UTF-8 pages.
            assert meta["language_score"] == pytest.approx(ref.language_score, abs=5e-5)
            same += 1
    assert same > 0
    # The reader writes the same.
    out = tmp_path / "reader"
    LocalPipelineExecutor(
        pipeline=[CowrexWarcReader(str(FIXTURES), glob_pattern="sample.warc.gz"), keep,
                  JsonlWriter(str(out), output_filename="docs.jsonl.gz")],
        tasks=1,
        logging_dir=str(tmp_path / "logs-reader"),
    ).run()
    with gzip.open(out / "docs.jsonl.gz", "rt") as f:
        read = [json.loads(line) for line in f]
    by_id = {d["id"]: d["metadata"]["language_score"] for d in read}
    both = [d for d in docs if d["id"] in by_id and d["id"] in mine and mine[d["id"]].charset.lower() == "utf-8"]
    assert both
    assert all(by_id[d["id"]] == d["metadata"]["language_score"] for d in both)


def test_an_arc_file_gives_the_texts_of_its_warc_twin(tmp_path):
    # datatrove's WarcReader (warcio) reads ARC files too; the step gives the same texts.
    def texts(pattern, sub):
        return [(d["metadata"]["url"], d["text"]) for d in run_pipeline(tmp_path / sub, CowrexExtractor(), pattern)]

    arc = texts("sample-arc.arc.gz", "arc")
    assert len(arc) >= 6
    assert arc == texts("sample.warc.gz", "warc")


def test_a_zstd_warc_gives_the_texts_of_its_gzip_twin(tmp_path):
    # datatrove's WarcReader decompresses a .warc.zst as one stream (no dictionary frame).
    pytest.importorskip("zstandard", reason="SKIPPED: zstandard is not installed")
    from conftest import warc_records, zstd_warc

    (tmp_path / "in").mkdir()
    zstd_warc(tmp_path / "in" / "sample.warc.zst", warc_records(FIXTURES / "sample.warc.gz"))

    def texts(folder, pattern, sub):
        out = tmp_path / sub
        LocalPipelineExecutor(
            pipeline=[
                WarcReader(str(folder), glob_pattern=pattern),
                CowrexExtractor(),
                JsonlWriter(str(out / "out"), output_filename="docs.jsonl.gz"),
            ],
            tasks=1,
            logging_dir=str(out / "logs"),
        ).run()
        with gzip.open(out / "out" / "docs.jsonl.gz", "rt") as f:
            return [(d["metadata"]["url"], d["text"]) for d in map(json.loads, f)]

    zst = texts(tmp_path / "in", "sample.warc.zst", "zst")
    assert len(zst) >= 6
    assert zst == texts(FIXTURES, "sample.warc.gz", "gz")


def test_without_keep_blocks_metadata_stays_datatroves(tmp_path):
    docs = run_pipeline(tmp_path, CowrexExtractor(scorer="justext"))
    assert docs and all("cowrex" not in d["metadata"] for d in docs)
    assert all(d["metadata"]["url"].startswith("http") for d in docs)


def test_bad_options_fail_when_the_pipeline_is_built():
    with pytest.raises(ValueError):
        CowrexExtractor(scorer="nope")


# CowrexWarcReader: cowrex reads the archives itself and hands on documents with its text.


def run_reader(tmp_path, reader):
    """(documents written, the reader step's stats) of `reader → JsonlWriter`."""
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[reader, JsonlWriter(str(out), output_filename="docs.jsonl.gz")],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    with gzip.open(out / "docs.jsonl.gz", "rt") as f:
        docs = [json.loads(line) for line in f]
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    step = next(s for s in stats if s["name"].endswith(CowrexWarcReader.name))
    return docs, {k: v["total"] if isinstance(v, dict) else v for k, v in step["stats"].items()}


def test_the_cowrex_reader_gives_read_warcs_documents(tmp_path):
    docs, stats = run_reader(tmp_path, CowrexWarcReader(str(FIXTURES), glob_pattern="sample.warc.gz", keep_blocks=True))
    reader = cowrex.read_warc(FIXTURES / "sample.warc.gz")
    mine = [d for d in reader if d.text]
    assert len(mine) >= 6
    assert [(d["id"], d["metadata"]["url"], d["metadata"]["date"], d["text"]) for d in docs] == [
        (d.record_id, d.url, d.warc_date, d.text) for d in mine]
    for d in docs:
        meta = d["metadata"]["cowrex"]
        assert [b["text"] for b in meta["blocks"] if b["bpv"] <= meta["bpt"]] == d["text"].split("\n")
        assert d["metadata"]["file_path"] == str(FIXTURES / "sample.warc.gz")
    # Every record's fate is in the step's stats, as in cowrex's own.
    assert {k[len("fate."):]: v for k, v in stats.items() if k.startswith("fate.")} == reader.stats["fates"]
    # The UTF-8 pages' texts are those of WarcReader → CowrexExtractor.
    theirs = {d["id"]: d["text"] for d in run_pipeline(tmp_path / "extractor", CowrexExtractor())}
    same = [d for d in mine if d.charset.lower() == "utf-8"]
    assert same and all(theirs[d.record_id] == d.text for d in same)


def test_the_cowrex_reader_reads_arc_and_zstd_files_as_their_gzip_twin(tmp_path):
    pytest.importorskip("zstandard", reason="SKIPPED: zstandard is not installed")
    import zstandard

    from conftest import warc_records, zstd_warc

    records = warc_records(FIXTURES / "sample.warc.gz")
    folder = tmp_path / "in"
    folder.mkdir()
    zstd_warc(folder / "plain.warc.zst", records)
    # With the IIPC's dictionary frame, which datatrove's own WarcReader cannot read.
    zstd_warc(folder / "dict.warc.zst", records, zstandard.train_dictionary(4096, records * 4))
    (folder / "sample-arc.arc.gz").write_bytes((FIXTURES / "sample-arc.arc.gz").read_bytes())

    def texts(name):
        docs, stats = run_reader(tmp_path / name, CowrexWarcReader(str(folder), glob_pattern=name))
        return [(d["metadata"]["url"], d["text"]) for d in docs]

    gz = [(d.url, d.text) for d in cowrex.read_warc(FIXTURES / "sample.warc.gz") if d.text]
    assert len(gz) >= 6
    assert texts("plain.warc.zst") == gz
    assert texts("dict.warc.zst") == gz
    assert texts("sample-arc.arc.gz") == gz


def test_a_file_the_cowrex_reader_cannot_read_does_not_stop_the_others(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-broken.warc.gz").write_bytes((FIXTURES / "broken.warc.gz").read_bytes())
    (folder / "b-not-a-warc.warc.gz").write_bytes(b"<html>not a web archive</html>")
    (folder / "c-sample.warc.gz").write_bytes((FIXTURES / "sample.warc.gz").read_bytes())
    docs, stats = run_reader(tmp_path, CowrexWarcReader(str(folder)))
    broken = [d for d in cowrex.read_warc(FIXTURES / "broken.warc.gz") if d.text]
    sample = [d for d in cowrex.read_warc(FIXTURES / "sample.warc.gz") if d.text]
    assert [d["metadata"]["url"] for d in docs] == [d.url for d in broken + sample]
    assert stats["failed_files"] == 1
    assert stats["input_files"] == 3
    assert stats["stream_error.corrupt_gzip_or_record"] >= 1


def test_the_cowrex_reader_refuses_what_cowrex_cannot_open():
    with pytest.raises(ValueError, match="local, http"):
        CowrexWarcReader("memory://somewhere")
    with pytest.raises(ValueError):
        CowrexWarcReader(str(FIXTURES), scorer="nope")


def test_the_cowrex_reader_reads_an_s3_folder(aws, tmp_path):
    # datatrove lists the folder with s3fs (datatrove[s3]); cowrex reads each object itself.
    try:
        import s3fs
    except ImportError:
        if os.environ.get("COWREX_S3_TESTS") == "1":
            pytest.fail('COWREX_S3_TESTS=1 but s3fs is not installed (pip install "datatrove[s3]")')
        pytest.skip('SKIPPED: s3fs is not installed (pip install "datatrove[s3]")')
    fs = s3fs.S3FileSystem()
    fs.pipe("bkt/mixed/a.warc.gz", (FIXTURES / "sample.warc.gz").read_bytes())
    fs.pipe("bkt/mixed/b.arc.gz", (FIXTURES / "sample-arc.arc.gz").read_bytes())
    docs, stats = run_reader(tmp_path, CowrexWarcReader("s3://bkt/mixed/", keep_blocks=True))
    gz = [(d.url, d.text) for d in cowrex.read_warc(FIXTURES / "sample.warc.gz") if d.text]
    assert [(d["metadata"]["url"], d["text"]) for d in docs] == gz + gz
    assert {d["metadata"]["file_path"] for d in docs} == {"s3://bkt/mixed/a.warc.gz", "s3://bkt/mixed/b.arc.gz"}
    assert "failed_files" not in stats


def test_the_cowrex_reader_reads_pages_kept_as_resource_records(tmp_path):
    # Browser-based crawlers keep pages as `resource` records, which datatrove's own reader
    # leaves out; cowrex reads them as pages.
    from conftest import SHARED

    f = SHARED / "warc" / "warcio_example-resource.warc.gz"
    if not f.exists():
        pytest.skip(f"SKIPPED: {f} is absent; this test needs ../shared/data")
    docs, stats = run_reader(tmp_path, CowrexWarcReader(str(f.parent), glob_pattern=f.name))
    mine = [d for d in cowrex.read_warc(f) if d.text]
    assert mine and [(d["metadata"]["url"], d["text"]) for d in docs] == [(d.url, d.text) for d in mine]
    assert stats["fate.written"] == len(mine)
