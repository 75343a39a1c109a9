#!/bin/sh
# All the tests: Rust (`cargo test --release`), then the Python package (python/), built and
# installed by pip into a virtual environment under target/, with pytest and datatrove.
#
#   sh scripts/test.sh [PYTEST_ARGS...]
set -eu
cd "$(dirname "$0")/.."
cargo test --release
venv=target/pytest-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q pytest "datatrove[io]"
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps ./python
COWREX_BIN="$PWD/target/release/cowrex" "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
