#!/usr/bin/env python3
"""Run cowrex over a manifest with Spark, in the executors' Python processes: like
cowrex_spark.py, but each task calls the `cowrex` Python package (`pip install ./python` on
every executor) inside `mapPartitions` instead of starting the binary, and writes each input's
documents as JSON lines, exactly as `cowrex process --format jsonl` writes them.

  spark-submit --master local[4] scripts/spark/cowrex_spark_python.py \\
      --input-base https://data.commoncrawl.org/ warc.paths.gz OUT_DIR

For the manifest line P it writes OUT_DIR/P' .jsonl.gz (P' is P without .warc.gz, .arc.gz, .warc.zst), under a
temporary name renamed when complete; an input whose output exists is skipped, so a rerun or
Spark's retry of a failed task finishes the job. An input that cannot be read is a row with
fate `failed` (its partial output is removed). The summary table (one row per input: fate,
records, documents, seconds, error) goes to OUT_DIR/_spark_summary.jsonl.
"""
import argparse
import gzip
import json
import os
import sys
import time

from pyspark.sql import Row, SparkSession


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("manifest", help="list of WARC files, one per line (gzipped or not)")
    p.add_argument("out", help="output directory (shared by all executors)")
    p.add_argument("--input-base", help="what relative manifest lines are relative to (directory, http(s) or s3:// URL)")
    p.add_argument("--num-input-partitions", type=int, default=None, help="partitions of the manifest (default: Spark's default parallelism)")
    p.add_argument("--threads", type=int, default=1, help="cowrex worker threads per input")
    p.add_argument("--scorer", default="combined", help="cowrex's deciding scorer (combined, mlp, ngram, justext, boilerpipe)")
    return p.parse_args(argv)


def output_of(line, out):
    rel = line.split("://", 1)[-1].lstrip("/") if "://" in line else line.lstrip("/")
    for ext in (".gz", ".zst", ".warc", ".arc"):
        rel = rel[: -len(ext)] if rel.endswith(ext) else rel
    return os.path.join(out, rel + ".jsonl.gz")


def process_partition(lines, args):
    """Read each input of a partition with the cowrex package; yield one Row per input."""
    import cowrex

    extractor = cowrex.Extractor(scorer=args.scorer)
    for line in lines:
        line = line.strip()
        if not line:
            continue
        target = output_of(line, args.out)
        started = time.monotonic()
        if os.path.exists(target):
            yield Row(input=line, fate="skipped", records=0, documents=0, seconds=0.0, error="")
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = os.path.join(os.path.dirname(target), "." + os.path.basename(target) + ".tmp")
        fate, error, records, documents = "done", "", 0, 0
        try:
            reader = extractor.read_warc(line, threads=args.threads, input_base=args.input_base)
            with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as f:
                for doc in reader:
                    f.write(doc.to_json() + "\n")
                    documents += 1
            records = reader.stats["records"]
            os.replace(tmp, target)
        except OSError as e:
            fate, error = "failed", str(e)
            if os.path.exists(tmp):
                os.unlink(tmp)
        yield Row(input=line, fate=fate, records=records, documents=documents,
                  seconds=round(time.monotonic() - started, 3), error=error)


def main(argv):
    args = parse_args(argv)
    args.out = os.path.abspath(args.out)
    if args.input_base and "://" not in args.input_base:
        args.input_base = os.path.abspath(args.input_base)
    spark = SparkSession.builder.appName("cowrex-python").getOrCreate()
    sc = spark.sparkContext
    partitions = args.num_input_partitions or sc.defaultParallelism
    manifest = sc.textFile(os.path.abspath(args.manifest), minPartitions=partitions)
    rows = manifest.repartition(partitions).mapPartitions(lambda lines: process_partition(lines, args)).collect()
    rows.sort(key=lambda r: r.input)
    os.makedirs(args.out, exist_ok=True)
    summary = os.path.join(args.out, "_spark_summary.jsonl")
    with open(summary, "w") as f:
        for r in rows:
            f.write(json.dumps(r.asDict(), sort_keys=True) + "\n")
    fates = {}
    for r in rows:
        fates[r.fate] = fates.get(r.fate, 0) + 1
    print(f"cowrex (Python) on Spark: {len(rows)} inputs: " + ", ".join(f"{n} {k}" for k, n in sorted(fates.items()))
          + f"; {sum(r.documents for r in rows)} documents; summary in {summary}")
    spark.stop()
    return 1 if fates.get("failed") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
