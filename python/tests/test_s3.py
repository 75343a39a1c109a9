"""``cowrex.read_warc`` on s3:// URLs, against a real S3-compatible server on loopback: SeaweedFS
(conftest's ``s3`` fixture), as tests/s3.rs uses it."""

import json

import pytest

import cowrex
from conftest import FIXTURES


def test_read_warc_reads_an_s3_object_as_the_local_file(aws):
    local = [d.to_json() for d in cowrex.read_warc(FIXTURES / "sample.warc.gz")]
    assert local
    assert [d.to_json() for d in cowrex.read_warc("s3://bkt/crawl/sample.warc.gz", threads=2)] == [
        j.replace('"warc_file":"sample.warc.gz"', '"warc_file":"crawl/sample.warc.gz"') for j in local]
    # A manifest line under an s3:// base; its warc_file is the line.
    docs = list(cowrex.read_warc("crawl/sample.warc.gz", input_base="s3://bkt/"))
    assert [d.id for d in docs] == [json.loads(j)["id"] for j in local]
    assert {d.warc_file for d in docs} == {"crawl/sample.warc.gz"}


def test_a_missing_key_and_a_wrong_secret_are_errors_that_say_so(aws):
    with pytest.raises(Exception, match="NoSuchKey"):
        list(cowrex.read_warc("s3://bkt/crawl/missing.warc.gz"))
    aws.setenv("AWS_SECRET_ACCESS_KEY", "wrong")
    with pytest.raises(Exception, match="SignatureDoesNotMatch"):
        list(cowrex.read_warc("s3://bkt/crawl/sample.warc.gz"))
