#!/usr/bin/env bash
# Exercise scripts/spark/cowrex_spark.py (and cowrex_spark_python.py, which uses the Python
# package installed here from ./python) with Spark in local mode (PyPI's pyspark, installed
# when missing; Java from Debian's default-jre-headless when missing): process a 5-file
# manifest of WARC, ARC and .warc.zst files (scripts/engine_common.sh; plus a line naming a
# missing file) on 2 local executor threads, and check that the five inputs are done and the
# missing one failed without stopping the others, that the outputs equal a single `cowrex
# process --manifest` run, and that a rerun skips the five. Both jobs again with the same
# manifest under `--input-base s3://bkt/` (a SeaweedFS server on loopback that holds the
# tree, scripts/check/s3_server.py): the same outputs. Then the
# near-duplicate job (cowrex_dedup_spark.py): its blacklist of that run's output tree, and of
# the 40-document corpus of tests/corpus.rs, is byte-identical to `cowrex dedup`'s; a damaged
# shingle file is named in its summary and fails it only with --strict.
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

# run [INPUT_BASE OUT]: the job over the manifest (default: the local tree, into $work/out).
run() {
  "$spark_submit" --master "local[2]" --conf spark.ui.enabled=false \
    --conf spark.driver.host=127.0.0.1 --conf spark.task.maxFailures=3 \
    scripts/spark/cowrex_spark.py --cowrex "$cowrex" --input-base "${1:-$base}" \
    --num-input-partitions 2 "$work/warc.paths.gz" "${2:-$work/out}" 2>"$work/spark.log"
}
# Exit code 1: an input failed.
first=$(run) && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
[ -n "$first" ] || { tail -n 30 "$work/spark.log"; exit 1; }
echo "$first"
[[ "$first" == "cowrex on Spark: 6 inputs: 5 done, 1 failed;"* ]] || { echo "FAIL: expected 5 done, 1 failed"; exit 1; }
grep -q '"fate": "failed", "input": "crawl-data/TEST/missing.warc.gz"' "$work/out/_spark_summary.jsonl" \
  || { echo "FAIL: the missing input's row"; exit 1; }
status=$("$cowrex" status --manifest "$work/warc.paths.gz" --input-base "$base" --out "$work/out")
echo "cowrex status: $status"
[ "$status" = "6 inputs: 5 done, 0 failed, 1 missing" ] || { echo "FAIL: cowrex status"; exit 1; }
"$cowrex" process --no-progress --manifest "$work/warc.paths.gz" --input-base "$base" -o "$work/single" 2>/dev/null || true
same_corpus "$work/single" "$work/out"
again=$(run) || true
echo "$again"
[[ "$again" == "cowrex on Spark: 6 inputs: 1 failed, 5 skipped;"* ]] || { echo "FAIL: the rerun did not skip the done inputs"; exit 1; }
echo "OK: the Spark job processed the manifest end to end, and a rerun skipped every input"

# The variant that calls the Python package inside mapPartitions (no process per file): its
# JSON lines equal `cowrex process --format jsonl`'s.
python3 -m pip install -q ./python
# run_python [INPUT_BASE OUT]: the Python job over the manifest (default: the local tree, into $work/py).
run_python() {
  "$spark_submit" --master "local[2]" --conf spark.ui.enabled=false \
    --conf spark.driver.host=127.0.0.1 --conf spark.task.maxFailures=3 \
    scripts/spark/cowrex_spark_python.py --input-base "${1:-$base}" \
    --num-input-partitions 2 "$work/warc.paths.gz" "${2:-$work/py}" 2>"$work/spark-python.log"
}
first=$(run_python) && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
[ -n "$first" ] || { tail -n 30 "$work/spark-python.log"; exit 1; }
echo "$first"
[[ "$first" == "cowrex (Python) on Spark: 6 inputs: 5 done, 1 failed;"* ]] || { echo "FAIL: expected 5 done, 1 failed"; exit 1; }
"$cowrex" process --no-progress --format jsonl --manifest "$work/warc.paths.gz" --input-base "$base" -o "$work/single-jsonl" 2>/dev/null || true
# same_jsonl DIR: the 5 JSONL files in DIR equal the single run's.
same_jsonl() {
  local compared=0 f
  for f in $(cd "$work/single-jsonl" && find . -name '*.jsonl.gz' | sort); do
    cmp -s <(gzip -dc "$1/$f") <(gzip -dc "$work/single-jsonl/$f") || { echo "FAIL: $f differs"; return 1; }
    compared=$((compared + 1))
  done
  [ "$compared" = 5 ] || { echo "FAIL: $compared JSONL files compared, not 5"; return 1; }
}
same_jsonl "$work/py"
again=$(run_python) || true
echo "$again"
[[ "$again" == "cowrex (Python) on Spark: 6 inputs: 1 failed, 5 skipped;"* ]] || { echo "FAIL: the rerun did not skip the done inputs"; exit 1; }
echo "OK: the Python Spark job wrote the JSON lines of cowrex process, and a rerun skipped every input"

# The same manifest read from S3: the tree in bucket bkt of a server on loopback.
python3 scripts/check/s3_server.py "$work/s3" --upload "$base" --env-file "$work/s3.env" >"$work/s3.log" 2>&1 &
s3_server=$!
trap 'kill "$s3_server" 2>/dev/null || true; wait "$s3_server" 2>/dev/null || true; if [ "${passed:-0}" = 1 ]; then rm -rf "$work"; else echo "outputs kept in $work" >&2; fi' EXIT
for _ in $(seq 600); do [ -s "$work/s3.env" ] || ! kill -0 "$s3_server" 2>/dev/null && break; sleep 0.2; done
[ -s "$work/s3.env" ] || { echo "FAIL: the S3 server did not start"; cat "$work/s3.log"; exit 1; }
. "$work/s3.env"
first=$(run s3://bkt/ "$work/s3-out") && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
echo "$first"
[[ "$first" == "cowrex on Spark: 6 inputs: 5 done, 1 failed;"* ]] || { tail -n 30 "$work/spark.log"; echo "FAIL: from S3, expected 5 done, 1 failed"; exit 1; }
grep '"input": "crawl-data/TEST/missing.warc.gz"' "$work/s3-out/_spark_summary.jsonl" | grep -q '"fate": "failed".*NoSuchKey\|NoSuchKey.*"fate": "failed"' \
  || { echo "FAIL: the missing object's row does not say NoSuchKey"; exit 1; }
same_corpus "$work/single" "$work/s3-out"
first=$(run_python s3://bkt/ "$work/s3-py") && { echo "FAIL: exit code 0 although an input is missing"; exit 1; }
echo "$first"
[[ "$first" == "cowrex (Python) on Spark: 6 inputs: 5 done, 1 failed;"* ]] || { tail -n 30 "$work/spark-python.log"; echo "FAIL: from S3, expected 5 done, 1 failed"; exit 1; }
same_jsonl "$work/s3-py"
kill "$s3_server"; wait "$s3_server" || true
unset AWS_ENDPOINT_URL AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
echo "OK: both Spark jobs read the manifest under --input-base s3://bkt/ and wrote the outputs of the local run"

run_dedup() {
  "$spark_submit" --master "local[2]" --conf spark.ui.enabled=false \
    --conf spark.driver.host=127.0.0.1 scripts/spark/cowrex_dedup_spark.py "$@" 2>>"$work/spark-dedup.log"
}
"$cowrex" dedup "$work/out" -o "$work/cowrex.blacklist" 2>/dev/null
run_dedup "$work/out" "$work/spark.blacklist" || { tail -n 30 "$work/spark-dedup.log"; exit 1; }
[ -s "$work/cowrex.blacklist" ] || { echo "FAIL: the run's copies gave an empty blacklist"; exit 1; }
cmp "$work/spark.blacklist" "$work/cowrex.blacklist" || { echo "FAIL: the Spark blacklist differs from cowrex dedup's"; exit 1; }
echo "OK: the Spark dedup job's blacklist of the run is cowrex dedup's ($(wc -l <"$work/cowrex.blacklist") ids)"
# An earlier cycle's blacklist (the first id): its documents' lines are left out by both.
head -n 1 "$work/cowrex.blacklist" >"$work/previous.blacklist"
"$cowrex" dedup "$work/out" --previous "$work/previous.blacklist" -o "$work/cowrex-2.blacklist" 2>/dev/null
run_dedup --previous "$work/previous.blacklist" "$work/out" "$work/spark-2.blacklist" >/dev/null
cmp "$work/spark-2.blacklist" "$work/cowrex-2.blacklist" || { echo "FAIL: with --previous, the blacklists differ"; exit 1; }
grep -qx "$(cat "$work/previous.blacklist")" "$work/spark-2.blacklist" && { echo "FAIL: a previous id listed again"; exit 1; }
echo "OK: with an earlier blacklist, the Spark job's blacklist is still cowrex dedup's"
# A truncated gzip file and a malformed line: counted and named; a failure only with --strict.
mkdir -p "$work/damaged"
find "$work/out" -name '*.shingles.gz' | sort | head -n 2 >"$work/two"
cp "$(sed -n 1p "$work/two")" "$work/damaged/whole.shingles.gz"
head -c 300 "$(sed -n 2p "$work/two")" >"$work/damaged/cut.shingles.gz"
printf 'not a shingle line\n' >"$work/damaged/odd.shingles"
summary=$(run_dedup "$work/damaged" "$work/damaged.blacklist") || { echo "FAIL: a damaged input failed the job without --strict"; exit 1; }
echo "$summary"
python3 - "$work/damaged.blacklist.summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert [d["file"].rsplit("/", 1)[1] for d in s["damaged_inputs"]] == ["cut.shingles.gz"], s
assert s["malformed"] == 1, s
PY
if run_dedup --strict "$work/damaged" "$work/strict.blacklist" >/dev/null; then
  echo "FAIL: --strict did not fail on a damaged input"; exit 1
fi
echo "OK: a damaged shingle file is named in the summary, and fails the job with --strict"
# The corpus of tests/corpus.rs (30 articles and 10 copies), through both.
COWREX_SPARK_SUBMIT="$spark_submit" cargo test --release --quiet --test integration corpus::near_duplicate_copies \
  -- --nocapture >"$work/corpus-test.log" 2>&1 || { tail -n 30 "$work/corpus-test.log"; exit 1; }
if grep -q "SKIPPED" "$work/corpus-test.log"; then echo "FAIL: the corpus test skipped the Spark job"; exit 1; fi
echo "OK: the Spark dedup job's blacklist of the corpus test's run is cowrex dedup's, and filter takes it"
passed=1
