#!/usr/bin/env bash
# Exercise scripts/spark/cowrex_spark.py (and cowrex_spark_python.py, which uses the Python
# package installed here from ./python) with Spark in local mode (PyPI's pyspark, installed
# when missing; Java from Debian's default-jre-headless when missing): process a 4-file
# manifest (plus a line naming a missing file) on 2 local executor threads, and check that the
# four inputs are done and the missing one failed without stopping the others, that the outputs
# equal a single `cowrex process --manifest` run, and that a rerun skips the four.
#
#   scripts/spark/local-run.sh [COWREX_BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/engine_common.sh
cowrex=$(cowrex_binary "${1:-}")

if ! command -v java >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null
fi
python3 -c "import pyspark" 2>/dev/null || python3 -m pip install -q "pyspark>=3.5,<5"
spark_submit=$(python3 -c "import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), 'bin', 'spark-submit'))")

work=$(mktemp -d /tmp/cowrex-spark.XXXXXX)
trap 'if [ "${passed:-0}" = 1 ]; then rm -rf "$work"; else echo "outputs kept in $work" >&2; fi' EXIT
base=$work/base
{ make_crawl "$base"; echo crawl-data/TEST/missing.warc.gz; } | gzip >"$work/warc.paths.gz"

run() {
  "$spark_submit" --master "local[2]" --conf spark.ui.enabled=false \
    --conf spark.driver.host=127.0.0.1 --conf spark.task.maxFailures=3 \
    scripts/spark/cowrex_spark.py --cowrex "$cowrex" --input-base "$base" \
    --num-input-partitions 2 "$work/warc.paths.gz" "$work/out" 2>"$work/spark.log"
}
# Exit code 1: an input failed.
first=$(run) && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
[ -n "$first" ] || { tail -n 30 "$work/spark.log"; exit 1; }
echo "$first"
[[ "$first" == "cowrex on Spark: 5 inputs: 4 done, 1 failed;"* ]] || { echo "FAIL: expected 4 done, 1 failed"; exit 1; }
grep -q '"fate": "failed", "input": "crawl-data/TEST/missing.warc.gz"' "$work/out/_spark_summary.jsonl" \
  || { echo "FAIL: the missing input's row"; exit 1; }
status=$("$cowrex" status --manifest "$work/warc.paths.gz" --input-base "$base" --out "$work/out")
echo "cowrex status: $status"
[ "$status" = "5 inputs: 4 done, 0 failed, 1 missing" ] || { echo "FAIL: cowrex status"; exit 1; }
"$cowrex" process --no-progress --manifest "$work/warc.paths.gz" --input-base "$base" -o "$work/single" 2>/dev/null || true
same_corpus "$work/single" "$work/out"
again=$(run) || true
echo "$again"
[[ "$again" == "cowrex on Spark: 5 inputs: 1 failed, 4 skipped;"* ]] || { echo "FAIL: the rerun did not skip the done inputs"; exit 1; }
echo "OK: the Spark job processed the manifest end to end, and a rerun skipped every input"

# The variant that calls the Python package inside mapPartitions (no process per file): its
# JSON lines equal `cowrex process --format jsonl`'s.
python3 -m pip install -q ./python
run_python() {
  "$spark_submit" --master "local[2]" --conf spark.ui.enabled=false \
    --conf spark.driver.host=127.0.0.1 --conf spark.task.maxFailures=3 \
    scripts/spark/cowrex_spark_python.py --input-base "$base" \
    --num-input-partitions 2 "$work/warc.paths.gz" "$work/py" 2>"$work/spark-python.log"
}
first=$(run_python) && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
[ -n "$first" ] || { tail -n 30 "$work/spark-python.log"; exit 1; }
echo "$first"
[[ "$first" == "cowrex (Python) on Spark: 5 inputs: 4 done, 1 failed;"* ]] || { echo "FAIL: expected 4 done, 1 failed"; exit 1; }
"$cowrex" process --no-progress --format jsonl --manifest "$work/warc.paths.gz" --input-base "$base" -o "$work/single-jsonl" 2>/dev/null || true
compared=0
for f in $(cd "$work/single-jsonl" && find . -name '*.jsonl.gz' | sort); do
  cmp -s <(gzip -dc "$work/py/$f") <(gzip -dc "$work/single-jsonl/$f") || { echo "FAIL: $f differs"; exit 1; }
  compared=$((compared + 1))
done
[ "$compared" = 4 ] || { echo "FAIL: $compared JSONL files compared, not 4"; exit 1; }
again=$(run_python) || true
echo "$again"
[[ "$again" == "cowrex (Python) on Spark: 5 inputs: 1 failed, 4 skipped;"* ]] || { echo "FAIL: the rerun did not skip the done inputs"; exit 1; }
echo "OK: the Python Spark job wrote the JSON lines of cowrex process, and a rerun skipped every input"
passed=1
