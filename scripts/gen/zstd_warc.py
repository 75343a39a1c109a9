#!/usr/bin/env python3
"""Convert a `.warc.gz` (one gzip member per record) into a `.warc.zst` as the IIPC's zstd
WARC specification writes it: one zstd frame per record, and with `--dictionary` first a
dictionary frame holding a dictionary trained on the records, which every frame then uses.
For tests (python/tests, scripts/engine_common.sh); needs PyPI's `zstandard`.

  python3 scripts/gen/zstd_warc.py IN.warc.gz OUT.warc.zst [--dictionary]
"""
import argparse
import pathlib
import struct
import sys
import zlib


def warc_records(path) -> list:
    """The records of a `.warc.gz` with one gzip member per record, each decompressed."""
    data, records = pathlib.Path(path).read_bytes(), []
    while data:
        d = zlib.decompressobj(31)
        records.append(d.decompress(data))
        data = d.unused_data
    return records


def zstd_warc(path, records, dictionary=None) -> None:
    """Write `records` as a `.warc.zst`: a zstd frame per record, after the dictionary frame
    when a dictionary (a `zstandard.ZstdCompressionDict`) is given."""
    import zstandard

    compressor = zstandard.ZstdCompressor(write_checksum=True, dict_data=dictionary)
    head = b""
    if dictionary is not None:
        raw = dictionary.as_bytes()
        head = b"\x5d\x2a\x4d\x18" + struct.pack("<I", len(raw)) + raw
    pathlib.Path(path).write_bytes(head + b"".join(compressor.compress(r) for r in records))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="a .warc.gz with one gzip member per record")
    ap.add_argument("output", help="the .warc.zst to write")
    ap.add_argument("--dictionary", action="store_true", help="train a dictionary and write its frame first")
    args = ap.parse_args(argv)
    records = warc_records(args.input)
    dictionary = None
    if args.dictionary:
        import zstandard

        dictionary = zstandard.train_dictionary(4096, records * 4)
    zstd_warc(args.output, records, dictionary)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
