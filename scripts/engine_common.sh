# Shared by scripts/slurm/local-cluster.sh and scripts/spark/local-run.sh (sourced from the
# repository root).

# make_crawl BASE: five inputs under a Common Crawl-like tree in BASE: the bundled samples,
# twice, and the sample a third time, as an ARC file and as a .warc.zst with its dictionary
# frame (scripts/gen/zstd_warc.py; PyPI's zstandard, installed when missing). Prints their
# relative paths, sorted (a manifest).
make_crawl() {
  local base=$1 seg
  for seg in 0 1; do
    mkdir -p "$base/crawl-data/TEST/segments/$seg/warc"
    cp fixtures/broken.warc.gz "$base/crawl-data/TEST/segments/$seg/warc/broken-$seg.warc.gz"
  done
  cp fixtures/sample.warc.gz "$base/crawl-data/TEST/segments/0/warc/sample-0.warc.gz"
  cp fixtures/sample-arc.arc.gz "$base/crawl-data/TEST/segments/1/warc/sample-1.arc.gz"
  python3 -c "import zstandard" 2>/dev/null || python3 -m pip install -q zstandard >&2
  python3 scripts/gen/zstd_warc.py --dictionary fixtures/sample.warc.gz "$base/crawl-data/TEST/segments/1/warc/sample-2.warc.zst"
  (cd "$base" && find crawl-data -name '*.warc.gz' -o -name '*.arc.gz' -o -name '*.warc.zst' | sort)
}

# same_corpus EXPECTED ACTUAL: the 10 corpus and shingle files of the five inputs in EXPECTED
# have equal contents in ACTUAL.
same_corpus() {
  local expected=$1 actual=$2 compared=0 f
  for f in $(cd "$expected" && find . -name '*.xml.gz' -o -name '*.shingles.gz' | sort); do
    cmp -s <(gzip -dc "$actual/$f") <(gzip -dc "$expected/$f") || { echo "FAIL: $f differs"; return 1; }
    compared=$((compared + 1))
  done
  [ "$compared" = 10 ] || { echo "FAIL: $compared corpus and shingle files compared, not 10"; return 1; }
}

# cowrex_binary [PATH]: the cowrex binary to use (default target/release/cowrex, built when
# missing), as an absolute path.
cowrex_binary() {
  local bin=${1:-target/release/cowrex}
  [ -x "$bin" ] || cargo build --release --quiet
  readlink -f "$bin"
}
