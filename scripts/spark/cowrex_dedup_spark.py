#!/usr/bin/env python3
"""Near-duplicate removal on Spark: texrex's `tender`, as `cowrex dedup` does it, for a whole crawl.

  spark-submit scripts/spark/cowrex_dedup_spark.py [OPTIONS] INPUT BLACKLIST

INPUT is a run's output tree (its *.shingles.gz and *.shingles files, found recursively) or a
file that lists shingle files, one per line. BLACKLIST is written as one plain file, the ids of
the documents to remove, sorted, one per line, the same file `cowrex dedup` writes for the same
input; BLACKLIST.summary.json beside it says how many lines, documents, redundant hashes, pairs
and blacklisted documents there were, and which input files were damaged. `cowrex filter
--blacklist BLACKLIST` applies it.

The same semantics as `cowrex dedup`:
  1. every shingle line (68 characters: a 20-digit min-hash, a 36-hex-digit document id and a
     10-digit size) is read; other lines are counted as malformed; lines of documents on a
     --previous blacklist are left out;
  2. hashes with --max-redundancy lines or more are dropped (stock phrases, boilerplate shared
     by many pages); each other hash pairs its documents (a document listed twice once, with its
     smallest size);
  3. a pair that shares at least --threshold hashes is a near-duplicate, and its shorter
     document (equal sizes: the greater id) is blacklisted.

Stages and shuffles: lines are read by tasks, one per input file; each hash's lines are counted
and gathered (shuffle by hash; a hash keeps at most --max-redundancy entries, so a stock phrase
shared by millions of pages costs a count, not a list); each hash's pairs are counted (shuffle
by pair, one count each); the blacklisted ids are sorted (range shuffle) and written by one
task, streaming. Nothing is collected on the driver but counts.

Input files that cannot be read, or end in the middle of a gzip member, are named in the
summary; the lines read before the damage count. With --strict they fail the job (exit 1).
"""
import argparse
import gzip
import json
import os
import sys
import zlib

from pyspark.sql import SparkSession

HASH_DIGITS, ID_LEN, SIZE_DIGITS = 20, 36, 10
LINE_LEN = HASH_DIGITS + 1 + ID_LEN + 1 + SIZE_DIGITS
HEX = set(b"0123456789abcdefABCDEF")
U64_MAX = (1 << 64) - 1


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="a run's output tree, or a file listing shingle files")
    p.add_argument("blacklist", help="the blacklist to write (one plain file)")
    p.add_argument("--threshold", type=int, default=5, help="shared min-hashes that make a pair near-duplicate (default 5)")
    p.add_argument("--max-redundancy", type=int, default=200, help="hashes with this many lines or more are ignored (default 200)")
    p.add_argument("--previous", action="append", default=[], help="a blacklist of an earlier cycle: its documents' lines are left out (repeatable)")
    p.add_argument("--partitions", type=int, default=None, help="partitions of the hash and pair shuffles (default: Spark's default parallelism)")
    p.add_argument("--strict", action="store_true", help="fail (exit 1) when an input file is damaged or unreadable")
    return p.parse_args(argv)


def input_files(path):
    """The shingle files of a run's output tree (sorted), or those a list file names."""
    if os.path.isdir(path):
        found = []
        for root, _, names in os.walk(path):
            found += [os.path.join(root, n) for n in names if n.endswith((".shingles.gz", ".shingles"))]
        return sorted(found)
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def parse_line(line):
    """(hash, id, size) of a shingle line (bytes, without its line break), or None, as
    `cowrex dedup` reads it."""
    if len(line) != LINE_LEN or line[20:21] != b" " or line[57:58] != b" ":
        return None
    h, ident, size = line[:20], line[21:57], line[58:]
    if not (h.isdigit() and size.isdigit()) or not set(ident) <= HEX:
        return None
    h, size = int(h), int(size)
    if h > U64_MAX:
        return None
    return h, ident.decode("ascii"), size


def read_file(path):
    """Yield ('line', (hash, id, size)), ('malformed', 1) per line of one shingle file, then
    ('file', (path, lines, error or None))."""
    lines, error = 0, None
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            rest = b""
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                parts = (rest + chunk).split(b"\n")
                rest = parts.pop()
                for line in parts:
                    lines += 1
                    yield from classify(line)
            if rest:
                lines += 1
                yield from classify(rest)
    except (OSError, EOFError, zlib.error) as e:
        error = "%s: %s" % (type(e).__name__, e)
    yield "file", (path, lines, error)


def classify(line):
    if line.endswith(b"\r"):
        line = line[:-1]
    s = parse_line(line)
    if s is None:
        yield "malformed", 1
    else:
        yield "line", s


def previous_ids(spark, paths):
    """The ids of the --previous blacklists, as (id, None), deduplicated."""
    if not paths:
        return None
    ids = spark.sparkContext.textFile(",".join(paths)).map(str.strip).filter(bool)
    bad = ids.filter(lambda i: len(i) != ID_LEN or not set(i.encode()) <= HEX).take(1)
    if bad:
        sys.exit("cowrex dedup on Spark: not a document id in a --previous blacklist: %r" % bad[0])
    return ids.distinct().map(lambda i: (i, None))


def pairs_of(group):
    """The document pairs of one hash's (id, size) entries, as (blacklisted id, other id): the
    shorter document first, or the one with the greater id when both are as long."""
    entries = sorted(group)
    kept = []
    for ident, size in entries:
        if not kept or kept[-1][0] != ident:
            kept.append((ident, size))
    for i in range(len(kept)):
        for j in range(i + 1, len(kept)):
            (a, sa), (b, sb) = kept[i], kept[j]
            yield ((a, b) if sa < sb else (b, a)), 1


def main(argv):
    args = parse_args(argv)
    spark = SparkSession.builder.appName("cowrex dedup").getOrCreate()
    sc = spark.sparkContext
    files = input_files(args.input)
    if not files:
        sys.exit("cowrex dedup on Spark: no shingle files in %s" % args.input)
    parts = args.partitions or sc.defaultParallelism

    items = sc.parallelize(files, len(files)).flatMap(read_file).cache()
    shingles = items.filter(lambda kv: kv[0] == "line").map(lambda kv: kv[1])
    malformed = items.filter(lambda kv: kv[0] == "malformed").count()
    file_rows = items.filter(lambda kv: kv[0] == "file").map(lambda kv: kv[1]).collect()
    damaged = [{"file": p, "error": e} for p, _, e in sorted(file_rows) if e]
    lines = sum(n for _, n, _ in file_rows)

    previous = previous_ids(spark, args.previous)
    previously_blacklisted = 0
    if previous is not None:
        keyed = shingles.map(lambda s: (s[1], s))
        kept = keyed.subtractByKey(previous, parts).values().cache()
        previously_blacklisted = lines - malformed - kept.count()
        shingles = kept

    # Each hash's lines, counted, and kept while fewer than the cap (a hash at the cap is
    # dropped, so no task ever holds more than the cap's entries of one hash).
    cap = args.max_redundancy

    def add(acc, entry):
        count, entries = acc
        if len(entries) < cap:
            entries.append(entry)
        return count + 1, entries

    def merge(a, b):
        entries = a[1] + b[1][: max(0, cap - len(a[1]))]
        return a[0] + b[0], entries

    per_hash = (shingles.map(lambda s: (s[0], (s[1], s[2])))
                .aggregateByKey((0, []), add, merge, parts)
                .map(lambda kv: kv[1]).cache())
    redundant = per_hash.filter(lambda c: c[0] >= cap).count()
    groups = per_hash.filter(lambda c: 1 < c[0] < cap).map(lambda c: c[1])
    pair_counts = groups.flatMap(pairs_of).reduceByKey(lambda a, b: a + b, parts).cache()
    pair_records = pair_counts.map(lambda kv: kv[1]).sum() if not pair_counts.isEmpty() else 0
    near = pair_counts.filter(lambda kv: kv[1] >= args.threshold).cache()
    near_pairs = near.count()
    listed = near.map(lambda kv: kv[0][0]).distinct(parts).sortBy(lambda i: i.encode(), numPartitions=parts).cache()
    blacklisted = listed.count()
    documents = shingles.map(lambda s: s[1]).distinct(parts).count()

    write_one_file(spark, listed, args.blacklist)
    summary = {
        "inputs": len(files),
        "lines": lines,
        "malformed": malformed,
        "previously_blacklisted": previously_blacklisted,
        "documents": documents,
        "redundant_hashes": redundant,
        "pair_records": pair_records,
        "near_duplicate_pairs": near_pairs,
        "blacklisted": blacklisted,
        "damaged_inputs": damaged,
        "threshold": args.threshold,
        "max_redundancy": args.max_redundancy,
    }
    with open(args.blacklist + ".summary.json", "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print("cowrex dedup on Spark: %d inputs (%d damaged), %d lines (%d malformed), %d documents, "
          "%d redundant hashes, %d near-duplicate pairs, %d blacklisted"
          % (len(files), len(damaged), lines, malformed, documents, redundant, near_pairs, blacklisted))
    for d in damaged:
        print("damaged input: %s (%s)" % (d["file"], d["error"]), file=sys.stderr)
    spark.stop()
    return 1 if damaged and args.strict else 0


def write_one_file(spark, ids, path):
    """Write the sorted ids as one plain file at `path`: one task streams every partition, in
    order, into a part file that then takes the blacklist's name."""
    tmp = path + ".parts"
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    target = jvm.org.apache.hadoop.fs.Path(tmp)
    fs = target.getFileSystem(conf)
    fs.delete(target, True)
    ids.coalesce(1).saveAsTextFile(tmp)
    part = [s.getPath() for s in fs.listStatus(target) if s.getPath().getName().startswith("part-")]
    dest = jvm.org.apache.hadoop.fs.Path(path)
    fs.delete(dest, False)
    if not fs.rename(part[0], dest):
        sys.exit("cowrex dedup on Spark: cannot move %s to %s" % (part[0], path))
    fs.delete(target, True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
