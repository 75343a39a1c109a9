#!/bin/sh
# All the tests: Rust (`cargo test --release`), then the Python package (python/), built and
# installed by pip into a virtual environment under target/, with pytest and datatrove; then
# the toy detector's tests (the `toy-detector` feature: a detector added in one file and one
# registry line shows in the command line's outputs and in Python), in a debug build so that
# the release binary stays without it, and with the package built with it in a virtual
# environment of its own; last, the portable wheel (scripts/check/test_wheel.sh: built, installed where
# there is no Rust toolchain, and compared with target/release/cowrex).
#
# --quick leaves out the slow tests, for the loop of a change: the models' reproductions
# (tests/models.rs; cargo counts them as filtered out), the signals' agreement with datatrove
# (pytest's skip), the toy builds and the wheel. CI runs the whole script.
#
#   sh scripts/test.sh [--quick] [PYTEST_ARGS...]
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quick" ]; then
    shift
    export COWREX_QUICK=1
    cargo test --release -- \
        --skip combined_model_training_is_pinned_and_beats_each_detector \
        --skip mlp_cross_validation_and_reproducible_models \
        --skip ncleaner_models_reproduce_and_clean_cleaneval \
        --skip texrex_pages_convert_to_gold_text_cowrex_reproduces \
        --skip train_markup_reproduces_the_built_in_model \
        --skip train_comment_reproduces_the_built_in_model_and_finds_comments \
        --skip train_ngram_from_pages_and_language_choice
else
    unset COWREX_QUICK
    cargo test --release
fi
venv=target/pytest-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
# regex and spacy: datatrove's filters (the language test keeps documents with its LambdaFilter;
# the signals test runs the quality filters with spaCy's blank tokenizers, no model downloads);
# datasets and datatrove read `--format parquet`'s files (python/tests/test_parquet.py).
"$venv/bin/python" -m pip install -q pytest "datatrove[io,s3]" regex spacy datasets
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps ./python
COWREX_BIN="$PWD/target/release/cowrex" "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
if [ -n "${COWREX_QUICK:-}" ]; then
    echo "quick run: the toy builds and the wheel left out; sh scripts/test.sh runs them"
    exit 0
fi
cargo test -p cowrex-cli --features toy-detector --test toy
toy=target/pytest-venv-toy
[ -x "$toy/bin/python" ] || python3 -m venv "$toy"
"$toy/bin/python" -m pip install -q pytest
MATURIN_PEP517_ARGS="--features toy-detector" \
    "$toy/bin/python" -m pip install -q --force-reinstall --no-deps ./python
COWREX_TOY=1 "$toy/bin/python" -m pytest -q -p no:cacheprovider python/tests/test_api.py -k toy
sh scripts/check/test_wheel.sh
