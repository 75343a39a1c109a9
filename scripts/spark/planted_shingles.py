#!/usr/bin/env python3
"""Write a generated run's shingle files with near-duplicates planted at known similarities, and
the blacklist `cowrex dedup` must find in them (deterministic; standard library only).

  python3 scripts/spark/planted_shingles.py OUT_DIR [--lines N] [--files K] [--threshold T]

Documents have 100 min-hashes each (N/100 documents in all, spread over K files
OUT_DIR/part-K.shingles.gz). One document in ten has a copy that shares s of its 100 min-hashes
(s cycles through 0..20, so the copies' Jaccard similarities s/(200-s) go from 0 to 0.11),
with a size one smaller, or equal (then the greater id goes). One hash in a thousand is a
stock phrase shared by 500 documents, which the redundancy cap (200) ignores. The expected
blacklist (the copies sharing at least T hashes, sorted) is written to OUT_DIR/expected.blacklist.
"""
import argparse
import gzip
import os
import random

HASHES = 100
U64 = 1 << 64


def doc_id(n):
    return "%032x%04x" % (n * 2654435761 % (1 << 128), n % 0x10000)


def write_planted(out_dir, lines, files=8, threshold=5):
    """Write about `lines` shingle lines to `files` files in `out_dir`; return the sorted ids
    `cowrex dedup --threshold T` must blacklist."""
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(20261126)
    docs = lines // HASHES
    stock = [rng.randrange(U64) for _ in range(max(1, docs // 1000))]
    outs = [gzip.open(os.path.join(out_dir, "part-%03d.shingles.gz" % k), "wt", compresslevel=1)
            for k in range(files)]
    expected = set()
    n = written = 0
    while written + HASHES <= lines:
        hashes = [rng.randrange(U64) for _ in range(HASHES)]
        size = rng.randrange(1000, 100000)
        # A stock phrase replaces the last min-hash of every other document (copies share
        # only their original's first ones).
        if n % 2 == 0:
            hashes[-1] = stock[(n // 2) % len(stock)]
        ident = doc_id(n)
        outs[n % files].writelines("%020d %s %010d\n" % (h, ident, size) for h in hashes)
        written += HASHES
        n += 1
        if n % 10 == 1 and written + HASHES <= lines:
            shared = (n // 10) % 21
            copy = hashes[:shared] + [rng.randrange(U64) for _ in range(HASHES - shared)]
            copy_id = doc_id(n)
            # Shorter by one, or as long: then the greater id is blacklisted.
            copy_size = size if (n // 10) % 2 else size - 1
            outs[n % files].writelines("%020d %s %010d\n" % (h, copy_id, copy_size) for h in copy)
            written += HASHES
            n += 1
            if shared >= threshold:
                expected.add(max(ident, copy_id) if copy_size == size else copy_id)
    for f in outs:
        f.close()
    return written, n, sorted(expected)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--lines", type=int, default=10_000_000)
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--threshold", type=int, default=5)
    args = p.parse_args()
    written, docs, expected = write_planted(args.out, args.lines, args.files, args.threshold)
    with open(os.path.join(args.out, "expected.blacklist"), "w") as f:
        f.writelines(i + "\n" for i in expected)
    print("%d lines, %d documents, %d expected on the blacklist" % (written, docs, len(expected)))


if __name__ == "__main__":
    main()
