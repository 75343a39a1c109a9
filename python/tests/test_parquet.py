"""`cowrex process --format parquet`: the files read with Hugging Face `datasets` and datatrove's
ParquetReader, and hold what the JSONL of the same run holds (less the blocks)."""

import gzip
import json

import pytest

from conftest import FIXTURES, run_cli

pq = pytest.importorskip("pyarrow.parquet", reason="SKIPPED: pyarrow is not installed")
datasets = pytest.importorskip("datasets", reason="SKIPPED: datasets is not installed")
datatrove = pytest.importorskip("datatrove", reason="SKIPPED: datatrove is not installed")

# The JSONL fields that Parquet's `metadata` holds: the document's own, then its provenance.
METADATA = """title author published modified sitename canonical description declared_language
host tld bdv bdc nbc nbcprop nbd nbdprop avgbpc avgbpd bpt""".split()
PROVENANCE = {
    "warc_file": "warc_file",
    "warc_record_id": "warc_record_id",
    "offset": "offset",
    "length": "length",
    "ip": "ip",
    "http_date": "http_date",
    "last_modified": "last_modified",
    "charset": "charset",
    "declared_charset": "declared_charset",
    "doctype": "doctype",
    "truncated": "truncated",
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run over the sample twice in one file (its second half: exact duplicates) and the
    broken fixture, in JSONL and Parquet."""
    tmp = tmp_path_factory.mktemp("parquet")
    sample = (FIXTURES / "sample.warc.gz").read_bytes()
    (tmp / "twice.warc.gz").write_bytes(sample + sample)
    out = tmp / "out"
    r = run_cli(
        "process", "--format", "jsonl,parquet", "--markdown", "-j2", "-o", out,
        tmp / "twice.warc.gz", FIXTURES / "broken.warc.gz",
    )
    assert r.returncode == 0, r.stderr.decode()
    return out


def jsonl(out, stem):
    with gzip.open(out / f"{stem}.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def test_parquet_holds_what_the_jsonl_holds(run):
    for stem in ("twice", "broken"):
        want = jsonl(run, stem)
        rows = pq.read_table(run / f"{stem}.parquet").to_pylist()
        assert len(rows) == len(want) > 0
        for row, j in zip(rows, want):
            for key in ("id", "url", "language", "text", "markdown"):
                assert row[key] == j[key], (stem, key)
            assert row["language_score"] == j.get("language_score")
            assert row["language_script"] == j.get("language_script")
            assert row["date"] == j["provenance"].get("warc_date")
            assert row["duplicate_of"] == j.get("duplicate_of")
            meta = row["metadata"]
            for key in METADATA:
                if key == "bpt":  # a 32-bit float in both
                    assert meta[key] == pytest.approx(j[key], rel=1e-6)
                else:
                    assert meta[key] == j.get(key), (stem, key)
            for key, jkey in PROVENANCE.items():
                assert meta[key] == j["provenance"].get(jkey), (stem, key)
            assert list(row["signals"]) == list(j["signals"])
            for name, v in j["signals"].items():
                assert row["signals"][name] == v, (stem, name)
    # The second half of `twice` repeats the first: marked as duplicates of it.
    rows = pq.read_table(run / "twice.parquet").to_pylist()
    half = len(rows) // 2
    assert half > 0
    assert [r["duplicate_of"] for r in rows[half:]] == [r["id"] for r in rows[:half]]
    assert all(r["duplicate_of"] is None for r in rows[:half])


def test_datasets_loads_the_files_as_one_dataset(run):
    ds = datasets.load_dataset(
        "parquet", data_files=sorted(str(p) for p in run.glob("*.parquet")), split="train"
    )
    n = sum(len(jsonl(run, s)) for s in ("broken", "twice"))
    assert ds.num_rows == n
    assert {"id", "text", "metadata", "signals"} <= set(ds.column_names)
    first = ds[0]
    assert first["text"] and first["signals"]["gopher_words"] >= 0
    # A filter on a signal, as a FineWeb-style selection would.
    kept = ds.filter(lambda d: d["signals"]["gopher_words"] >= 50)
    assert 0 < kept.num_rows <= n


def test_datatrove_reads_the_files(run, tmp_path):
    from datatrove.pipeline.readers import ParquetReader

    docs = list(ParquetReader(str(run), glob_pattern="*.parquet")())
    want = {j["id"]: j for s in ("broken", "twice") for j in jsonl(run, s)}
    assert len(docs) == sum(len(jsonl(run, s)) for s in ("broken", "twice"))
    for d in docs:
        j = want[d.id]
        assert d.text == j["text"]
        # The other columns become the document's metadata, as datatrove's filters read it.
        assert d.metadata["url"] == j["url"]
        assert d.metadata["language"] == j["language"]
        assert d.metadata["signals"] == j["signals"]
        assert d.metadata["host"] == j["host"]
