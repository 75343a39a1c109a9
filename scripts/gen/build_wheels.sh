#!/bin/sh
# The Python package (python/) as a portable wheel and an sdist, in target/wheels/:
#
#   cowrex-VERSION-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
#   cowrex-VERSION.tar.gz
#
# The wheel is abi3 (every CPython from 3.9 on) and links against glibc 2.17 (manylinux2014:
# CentOS 7, Debian 8, Ubuntu 14.04 and later): maturin cross-links with zig, from PyPI's
# `ziglang`, so it does not matter which glibc this machine has. It holds the library, the
# built-in models and the command line (the `cowrex` console script). Then auditwheel checks
# the platform tag and that nothing outside manylinux2014's libraries is linked.
#
#   sh scripts/gen/build_wheels.sh                                   # this machine's x86-64
#   sh scripts/gen/build_wheels.sh --target aarch64-unknown-linux-gnu  # ARM (rustup target add it)
#
# Arguments go to `maturin build`. maturin, ziglang and auditwheel are installed into a
# virtual environment under target/; Cargo builds in target/wheel-build, apart from the
# workspace's builds, whose C code is compiled by the system's compiler.
set -eu
cd "$(dirname "$0")/../.."
tools=target/wheel-tools
[ -x "$tools/bin/python" ] || python3 -m venv "$tools"
"$tools/bin/python" -m pip install -q "maturin==1.16.0" "ziglang==0.17.1" "auditwheel==6.8.2"
out=target/wheels
rm -f "$out"/cowrex-*.whl "$out"/cowrex-*.tar.gz
# maturin finds zig as `python3 -m ziglang` from the tools' environment.
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/maturin" build --release --zig \
    --compatibility manylinux2014 --sdist -m python/Cargo.toml \
    --target-dir target/wheel-build -o "$out" "$@"
for w in "$out"/cowrex-*.whl; do
    "$tools/bin/auditwheel" show "$w"
    echo "$w: $(du -k "$w" | cut -f1) KiB"
done
