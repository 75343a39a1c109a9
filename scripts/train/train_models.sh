#!/bin/sh
# Retrain every model in models/ from ../shared/data with cowrex's own code, byte-identically,
# and print the cross-validated figures that docs/models.md reports.
#
# Usage: sh scripts/train/train_models.sh   (from anywhere; about half an hour on 2 cores; needs gpg)
set -eu
cd "$(dirname "$0")/../.."
DATA=../shared/data
if [ ! -d "$DATA/texrex" ] || [ ! -d "$DATA/pages" ] || [ ! -d "$DATA/snippets" ] || [ ! -d "$DATA/texrex-boilerplate" ] || [ ! -d "$DATA/blocks" ]; then
    echo "train_models.sh: needs $DATA/texrex, $DATA/texrex-boilerplate, $DATA/pages, $DATA/snippets and $DATA/blocks" >&2
    exit 2
fi
cargo build --release --quiet
COWREX=target/release/cowrex
for lang in en de fr sv; do
    echo "== texrex-$lang.mlp"
    "$COWREX" train mlp --data "$DATA/texrex/boilerplate.$lang.dat" --cv 10 -o "models/texrex-$lang.mlp"
done
echo "== ncleaner-en-standard.ngram.gz"
"$COWREX" train ngram --pages "$DATA/pages" -o models/ncleaner-en-standard.ngram.gz
echo "== ncleaner-en-nonlexical.ngram.gz"
"$COWREX" train ngram --folding nonlexical --pages "$DATA/pages" -o models/ncleaner-en-nonlexical.ngram.gz
# Text-quality profiles: the content blocks of texrex's annotated pages of each language and
# the development gold texts, each document only if it is identified as that language.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for pair in en:eng de:deu fr:fra sv:swe; do
    lang=${pair%%:*}; code=${pair##*:}
    echo "== profile-$lang.prof"
    python3 scripts/train/profile_texts.py "$lang" "$TMP/$lang.jsonl"
    "$COWREX" train profile --lang "$code" -o "models/profile-$lang.prof" "$TMP/$lang.jsonl" "$DATA/pages/ground-truth"
done
echo "== markup.words.gz"
"$COWREX" train markup --pages "$DATA/pages" --pages "$DATA/snippets" --blocks "$DATA/blocks" -o models/markup.words.gz
# The comment and combined models last: their features include the other models' output.
cargo build --release --quiet  # embed the models just trained
echo "== comment.gbt.gz"
"$COWREX" train comment --cv --pages "$DATA/pages" --blocks "$DATA/blocks" -o models/comment.gbt.gz
echo "== combined.gbt.gz"
"$COWREX" train combined --pages "$DATA/pages" --pages "$DATA/snippets" --blocks "$DATA/blocks" -o models/combined.gbt.gz
git status --short models/
if git diff --quiet -- models/; then
    echo "models/: every model reproduced byte for byte"
else
    echo "models/: the models above differ from the committed ones"
fi
