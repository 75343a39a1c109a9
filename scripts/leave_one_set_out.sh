#!/bin/sh
# The combined model on development sets it was not trained on: for each set of
# ../shared/data/pages, train the combined model on the other three sets and score the
# held-out set (bag-of-words F1, mean over its pages) with the default decision (each page's
# expected-F1 threshold on the calibrated probabilities) and at the fixed thresholds 0.5 and
# 0.85. This measures how well the model carries over to pages of another origin and another
# annotation convention, which cross-validation by page does not. The n-gram model whose
# scores the held-out set's pages get is trained on the other three sets as well (the built-in
# ones saw every set); it is the standard one, used for pages in every language.
#
# Usage: sh scripts/leave_one_set_out.sh [TRAIN OPTION...]   (from anywhere; about 12 minutes
# on 2 cores). Options are passed to `cowrex train combined`, e.g. `--depth 5` or
# `--subsample 0.5 --colsample 0.5`, to measure a training variant the same way.
set -eu
TRAIN_OPTIONS="$*"
cd "$(dirname "$0")/.."
DATA=../shared/data
if [ ! -d "$DATA/pages" ] || [ ! -d "$DATA/blocks" ]; then
    echo "leave_one_set_out.sh: needs $DATA/pages and $DATA/blocks" >&2
    exit 2
fi
cargo build --release --quiet
COWREX=target/release/cowrex
OUT=target/leave-one-set-out
mkdir -p "$OUT"
SETS="cleaneval dragnet google-trends-2017 l3s-gn1"
for held in $SETS; do
    train=$(for s in $SETS; do [ "$s" = "$held" ] || printf '%s,' "$s"; done)
    # $TRAIN_OPTIONS unquoted: split into its options.
    # shellcheck disable=SC2086
    "$COWREX" train combined --pages "$DATA/pages" --blocks "$DATA/blocks" --sets "${train%,}" \
        $TRAIN_OPTIONS -o "$OUT/without-$held.gbt.gz" 2>"$OUT/train.log" || {
        cat "$OUT/train.log" >&2
        exit 1
    }
    "$COWREX" train ngram --pages "$DATA/pages" --sets "${train%,}" \
        -o "$OUT/without-$held.ngram.gz" 2>/dev/null
    for t in per-page 0.5 0.85; do
        printf 'held out, threshold %s: ' "$t"
        if [ "$t" = per-page ]; then set --; else set -- --threshold "$t"; fi
        "$COWREX" eval "$DATA/pages" --sets "$held" --scorer combined "$@" \
            --combined-model "$OUT/without-$held.gbt.gz" \
            --ngram standard --ngram-model "$OUT/without-$held.ngram.gz" | grep "^$held "
    done
done
