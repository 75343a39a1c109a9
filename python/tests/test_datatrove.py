"""CowrexExtractor in a real datatrove pipeline: WarcReader -> CowrexExtractor -> JsonlWriter."""

import gzip
import json

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

from cowrex.datatrove import CowrexExtractor  # noqa: E402


def run_pipeline(tmp_path, step, glob_pattern="sample.warc.gz"):
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(FIXTURES), glob_pattern=glob_pattern),
            step,
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
