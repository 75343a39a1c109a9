#!/bin/sh
# The screenshots in docs/: `cowrex inspect` on a page of the bundled sample (fixtures/, made
# by scripts/gen/make_fixtures.py) and `cowrex report` on a run over the two fixtures, drawn by
# headless Chromium (Debian's `chromium`).
#
# Usage: sh scripts/gen/screenshots.sh   (after cargo build --release)
set -eu
cd "$(dirname "$0")/../.."
COWREX=target/release/cowrex
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
shot() { # shot FILE.html OUT.png WIDTH,HEIGHT
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$TMP/profile" --hide-scrollbars --window-size="$3" \
        --screenshot="$2" "file://$1" 2>/dev/null
}
"$COWREX" inspect --warc fixtures/sample.warc.gz --url https://example.org/news/festival \
    -o "$TMP/inspect.html"
shot "$TMP/inspect.html" "$PWD/docs/inspect.png" 900,560
"$COWREX" process --no-progress --format xml,jsonl -o "$TMP/run" fixtures/sample.warc.gz \
    fixtures/broken.warc.gz
"$COWREX" report "$TMP/run" -o "$TMP/report.html"
shot "$TMP/report.html" "$PWD/docs/report.png" 900,900
ls -l docs/*.png
