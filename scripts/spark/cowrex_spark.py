#!/usr/bin/env python3
"""Run cowrex over a manifest with Spark, one WARC file per cowrex run, in the style of Common
Crawl's cc-pyspark: the manifest (such as warc.paths.gz) is read as a text file and split into
partitions, each partition's tasks run `cowrex process` on their files, and a summary table
(one row per input: its fate, exit code, records, documents and seconds) is written.

  spark-submit --master local[4] scripts/spark/cowrex_spark.py \\
      --input-base https://data.commoncrawl.org/ warc.paths.gz OUT_DIR [-- process options]

Outputs mirror the manifest's paths under OUT_DIR (OUT_DIR must be a file system every
executor can write to), exactly as `cowrex process --manifest` writes them, so `cowrex status`
and `cowrex stats merge` work on the result. Inputs done before (their S.done.json) are
skipped by cowrex itself, so a rerun, or Spark's retry of a failed task, finishes the job. A
file that cannot be read is a row with fate `failed`; a cowrex stopped by a signal (exit code
75) fails its task, which Spark then retries.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from pyspark.sql import Row, SparkSession

EXIT_RETRY = 75
SUMMARY = re.compile(r"cowrex: (\d+) files done, (\d+) skipped, (\d+) failed; (\d+) records, (\d+) documents")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("manifest", help="list of WARC files, one per line (gzipped or not)")
    p.add_argument("out", help="output directory (shared by all executors)")
    p.add_argument("--input-base", help="what relative manifest lines are relative to (directory, http(s) or s3:// URL)")
    p.add_argument("--cowrex", default=os.environ.get("COWREX", "cowrex"), help="the cowrex binary on the executors")
    p.add_argument("--num-input-partitions", type=int, default=None, help="partitions of the manifest (default: Spark's default parallelism)")
    p.add_argument("--threads", type=int, default=1, help="cowrex worker threads per file (-j)")
    p.add_argument("--summary", help="write the summary table here as JSON lines (default: OUT/_spark_summary)")
    p.add_argument("process_options", nargs="*", help="further `cowrex process` options (after --)")
    return p.parse_args(argv)


def process_partition(lines, args):
    """Run cowrex on each manifest line of a partition; yield one Row per input."""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".paths", delete=False) as m:
            m.write(line + "\n")
        cmd = [args.cowrex, "process", "--no-progress", "--manifest", m.name,
               "--task-index", "0", "--task-count", "1", "-o", args.out, "-j", str(args.threads)]
        if args.input_base:
            cmd += ["--input-base", args.input_base]
        cmd += args.process_options
        started = time.monotonic()
        try:
            run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        finally:
            os.unlink(m.name)
        if run.returncode == EXIT_RETRY:
            raise RuntimeError(f"cowrex was stopped while processing {line}; retry the task")
        found = SUMMARY.search(run.stderr)
        if run.returncode not in (0, 1) or not found:
            raise RuntimeError(f"cowrex failed on {line} (exit code {run.returncode}): {run.stderr[-2000:]}")
        done, skipped, failed, records, documents = map(int, found.groups())
        fate = "failed" if failed else "skipped" if skipped else "done"
        error = "" if not failed else run.stderr.strip().splitlines()[0]
        yield Row(input=line, fate=fate, exit_code=run.returncode, records=records,
                  documents=documents, seconds=round(time.monotonic() - started, 3), error=error)


def main(argv):
    args = parse_args(argv)
    args.out = os.path.abspath(args.out)
    if args.input_base and "://" not in args.input_base:
        args.input_base = os.path.abspath(args.input_base)
    spark = SparkSession.builder.appName("cowrex").getOrCreate()
    sc = spark.sparkContext
    partitions = args.num_input_partitions or sc.defaultParallelism
    # Spark reads gzipped text files (warc.paths.gz) as they are.
    manifest = sc.textFile(os.path.abspath(args.manifest), minPartitions=partitions)
    rows = manifest.repartition(partitions).mapPartitions(lambda lines: process_partition(lines, args)).collect()
    rows.sort(key=lambda r: r.input)
    summary = args.summary or os.path.join(args.out, "_spark_summary.jsonl")
    os.makedirs(os.path.dirname(os.path.abspath(summary)), exist_ok=True)
    with open(summary, "w") as f:
        for r in rows:
            f.write(json.dumps(r.asDict(), sort_keys=True) + "\n")
    fates = {}
    for r in rows:
        fates[r.fate] = fates.get(r.fate, 0) + 1
    print(f"cowrex on Spark: {len(rows)} inputs: " + ", ".join(f"{n} {k}" for k, n in sorted(fates.items()))
          + f"; {sum(r.documents for r in rows)} documents; summary in {summary}")
    spark.stop()
    return 1 if fates.get("failed") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
