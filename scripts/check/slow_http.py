#!/usr/bin/env python3
"""Serve a directory over HTTP on loopback at a limited rate, so that a run over http(s)
inputs lasts long enough to be interrupted (used by scripts/slurm/local-cluster.sh).

  python3 scripts/check/slow_http.py DIR PORT_FILE [BYTES_PER_SECOND]

Binds 127.0.0.1 on a free port and writes the port to PORT_FILE. Ranges are not supported
(cowrex then skips the bytes it already has). Standard library only.
"""
import http.server
import os
import sys
import time

root, port_file = sys.argv[1], sys.argv[2]
rate = int(sys.argv[3]) if len(sys.argv) > 3 else 20000


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = os.path.join(root, self.path.lstrip("/"))
        if ".." in self.path or not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        step = max(1, rate // 10)
        try:
            for i in range(0, len(data), step):
                self.wfile.write(data[i : i + step])
                self.wfile.flush()
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_file + ".tmp", port_file)
server.serve_forever()
