#!/bin/sh
# The wheel as a user meets it: built by scripts/gen/build_wheels.sh (or given), installed into a
# fresh virtual environment in a shell that has no Rust toolchain (env -i, PATH the
# environment's bin and /usr/bin:/bin, HOME a new directory), then compared with the
# workspace's build (target/release/cowrex, built here if missing):
#   - the `cowrex` console script: --help, --version, usage errors, a failed input, `process`
#     on the bundled sample (every output byte for byte, the statistics but for time_ms) and
#     `extract`, each with the binary's exit code, stdout and stderr (rates and durations
#     aside); `process` stops cleanly on SIGTERM and on SIGINT (exit code 75);
#   - cowrex.extract, cowrex.read_warc and the datatrove step (WarcReader -> CowrexExtractor ->
#     JsonlWriter) give the texts of the binary's outputs.
# The checks are scripts/check/wheel_check.py's.
#
#   sh scripts/check/test_wheel.sh [WHEEL]
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
start=$(date +%s)
if [ $# -gt 0 ]; then
    wheel=$(realpath "$1")
else
    sh scripts/gen/build_wheels.sh
    wheel=$(ls "$root"/target/wheels/cowrex-*-manylinux*_x86_64.whl)
fi
[ -x target/release/cowrex ] || cargo build --release
work=$root/target/wheel-test
rm -rf "$work"
mkdir -p "$work/home"
python3 scripts/check/wheel_check.py cli "$root/target/release/cowrex" "$work/ref"
# The user's environment: a fresh venv with datatrove from PyPI (with this shell's
# settings, which pip may need to reach PyPI).
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "datatrove[io]"
env -i HOME="$work/home" PATH="$work/venv/bin:/usr/bin:/bin" LANG=C.UTF-8 \
    WHEEL="$wheel" CHECK="$root/scripts/check/wheel_check.py" WORK="$work" sh -eu -c '
    if command -v cargo || command -v rustc; then echo "test_wheel: a Rust toolchain is on PATH" >&2; exit 1; fi
    pip install -q --no-index --no-deps "$WHEEL"
    [ "$(command -v cowrex)" = "$WORK/venv/bin/cowrex" ]
    python "$CHECK" cli cowrex "$WORK/wheel"
    python "$CHECK" compare "$WORK/ref" "$WORK/wheel"
    python "$CHECK" api "$WORK/ref" "$WORK/api"
    python "$CHECK" signals cowrex "$WORK/signals"
    [ "$(python -m cowrex --version)" = "$(cowrex --version)" ]
'
echo "test_wheel: passed in $(($(date +%s) - start)) s ($(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB)"
