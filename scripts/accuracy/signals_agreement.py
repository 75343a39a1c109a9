#!/usr/bin/env python3
"""cowrex's quality signals against datatrove's filters, document by document.

Builds a WARC of the pages of ../shared/data/pages (every set) and of
../shared/data/snippets (trafilatura-eval-dev), runs `cowrex process --format jsonl` on it, then,
for every document with text:

  * datatrove's filters on cowrex's text, each with its defaults, as FineWeb's pipeline and the
    presets chain them: GopherRepetitionFilter, GopherQualityFilter, C4QualityFilter
    (filter_no_terminal_punct=False; FineWebQualityFilter then reads the text it leaves) and
    C4QualityFilter with every rule;
  * `cowrex filter --preset P` on the JSONL, for P in fineweb, gopher, c4, and the reason in its
    S.dropped.tsv;

and reports, per preset, the share of documents on which both keep, or both drop with the same
reason (`filter/reason`), and lists every disagreement with the figures behind it. The figures
themselves are compared too: per signal, the share of documents on which cowrex's value and the
one computed from datatrove's own functions (its spaCy words, its duplicate counting) agree
within 1 % (relative) or 0.005 (absolute).

It also reports the CPU seconds of datatrove's four filters (FineWeb's chain, each run on
every document) against those of cowrex's signals stage and of the whole `cowrex process` run.

datatrove and spaCy run offline with spaCy's blank English tokenizer (no model downloads); the
filters run in parallel processes (-j, default: cores).

Usage: python3 scripts/accuracy/signals_agreement.py [--cowrex BIN] [--work DIR] [-j N] [--limit N]
           [--min-agreement 0.995] [--report FILE]
Exit status 1 when a preset agrees on fewer documents than --min-agreement.
"""
import argparse
import gzip
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
DATA = os.path.join(ROOT, "..", "shared", "data")
SOURCES = [
    (os.path.join(DATA, "pages", "html"), ["*"]),
    (os.path.join(DATA, "snippets", "html"), ["trafilatura-eval-dev"]),
]
PRESETS = ["fineweb", "gopher", "c4"]

# The figures compared: cowrex's signal and how datatrove's code computes it (see figures()).
FIGURES = [
    "gopher_words",
    "gopher_non_symbol_words",
    "gopher_mean_word_length",
    "gopher_alpha_words_ratio",
    "gopher_stop_words",
    "gopher_hash_ratio",
    "gopher_ellipsis_ratio",
    "gopher_bullet_lines_ratio",
    "gopher_ellipsis_lines_ratio",
    "gopher_dup_para_frac",
    "gopher_dup_line_frac",
    "gopher_dup_line_char_frac",
    "gopher_top_2gram_char_frac",
    "gopher_top_3gram_char_frac",
    "gopher_top_4gram_char_frac",
    "gopher_dup_5gram_char_frac",
    "gopher_dup_10gram_char_frac",
    "c4_sentences",
    "c4_sentences_any_end",
    "fineweb_line_punct_ratio",
    "fineweb_short_line_ratio",
    "fineweb_char_dup_ratio",
    "fineweb_newline_ratio",
]


def build_warcs(work):
    import bench

    paths = []
    for i, (root, sets) in enumerate(SOURCES):
        path = os.path.join(work, "agreement-%d.warc.gz" % i)
        if not os.path.exists(path):
            bench.build_warc(path + ".tmp", sets, root=root)
            os.replace(path + ".tmp", path)
        paths.append(path)
    return paths


def run_cowrex(cowrex, work, warcs, jobs):
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [cowrex, "process", "--format", "jsonl", "--no-shingles", "-j", str(jobs), "-o", out] + warcs,
        check=True,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    signals_ms = 0
    for f in os.listdir(out):
        if f.endswith(".stats.json"):
            with open(os.path.join(out, f), encoding="utf-8") as fh:
                signals_ms += json.load(fh)["time_ms"]["signals"]
    files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".jsonl.gz"))
    reasons = {}
    for preset in PRESETS:
        kept = os.path.join(work, "kept-" + preset)
        shutil.rmtree(kept, ignore_errors=True)
        subprocess.run(
            [cowrex, "filter", "--preset", preset, "--allow-repeated-ids", "-o", kept] + files,
            check=True,
            stderr=subprocess.DEVNULL,
        )
        r = {}
        for f in os.listdir(kept):
            if f.endswith(".dropped.tsv"):
                with open(os.path.join(kept, f), encoding="utf-8") as fh:
                    for line in fh:
                        doc_id, reason = line.rstrip("\n").split("\t")
                        r[doc_id] = reason
        reasons[preset] = r
        shutil.rmtree(kept)
    docs = []
    for f in files:
        with gzip.open(f, "rt", encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                if d["text"].strip():
                    docs.append({"id": d["id"], "url": d["url"], "text": d["text"], "signals": d["signals"]})
    return docs, reasons, cpu, signals_ms / 1000


def _outcome(result):
    if result is True:
        return None
    if isinstance(result, tuple):
        return result[1]
    return "dropped"


_FILTERS = None
# datatrove's split_into_parts (its words and sentences, through spaCy) keeps its last 5 results.
# Outside the timed run of FineWeb's chain, the splits that chain made are reused from _MEMO,
# which holds one document's; the timed run itself sees only datatrove's own cache.
_MEMO = {"serve": False, "parts": {}}


def _memoise_splits():
    import datatrove.utils.text as text

    split = text.split_into_parts

    def split_into_parts(t, mode=text.SPLIT_TEXT_DOCUMENTS, language=text.Languages.english):
        key = (t, mode, language)
        if _MEMO["serve"] and key in _MEMO["parts"]:
            return _MEMO["parts"][key]
        parts = split(t, mode, language)
        _MEMO["parts"][key] = parts
        return parts

    text.split_into_parts = split_into_parts


def _filters():
    global _FILTERS
    if _FILTERS is None:
        _memoise_splits()
        from datatrove.pipeline.filters import (
            C4QualityFilter,
            FineWebQualityFilter,
            GopherQualityFilter,
            GopherRepetitionFilter,
        )

        _FILTERS = {
            "gopher_repetition": GopherRepetitionFilter(),
            "gopher_quality": GopherQualityFilter(),
            "c4_any_end": C4QualityFilter(filter_no_terminal_punct=False),
            "c4": C4QualityFilter(),
            "fineweb": FineWebQualityFilter(),
        }
    return _FILTERS


def judge(doc):
    """datatrove's verdict of each filter on one document, and its figures."""
    from datatrove.data import Document

    f = _filters()
    out = {}
    _MEMO["parts"].clear()
    _MEMO["serve"] = False
    # FineWeb's four filters, each on every document, timed (CPU seconds).
    t = time.process_time()
    for name in ["gopher_repetition", "gopher_quality"]:
        out[name] = _outcome(f[name].filter(Document(text=doc["text"], id=doc["id"])))
    d = Document(text=doc["text"], id=doc["id"])
    out["c4_any_end"] = _outcome(f["c4_any_end"].filter(d))
    # FineWeb's filter reads the text C4 leaves, as in FineWeb's pipeline.
    out["fineweb"] = _outcome(f["fineweb"].filter(d)) if out["c4_any_end"] is None else "not run"
    spent = time.process_time() - t
    _MEMO["serve"] = True
    out["c4"] = _outcome(f["c4"].filter(Document(text=doc["text"], id=doc["id"])))
    g = figures(doc["text"], d.text if out["c4_any_end"] is None else None)
    _MEMO["parts"].clear()
    return doc["id"], out, g, spent


def figures(text, c4_text):
    """Each figure of FIGURES as datatrove's filters compute it."""
    from datatrove.pipeline.filters.gopher_repetition_filter import (
        find_all_duplicate,
        find_duplicates,
        find_top_duplicate,
        get_n_grams,
    )
    from datatrove.pipeline.filters.gopher_quality_filter import STOP_WORDS
    from datatrove.utils.text import PUNCTUATION_SET, TERMINAL_PUNCTUATION, split_into_sentences, split_into_words
    import re

    words = split_into_words(text, "en")
    n = len(words)
    non_symbol = [w for w in words if any(ch not in PUNCTUATION_SET for ch in w)]
    lines = text.splitlines()
    g = {
        "gopher_words": n,
        "gopher_non_symbol_words": len(non_symbol),
        "gopher_mean_word_length": sum(len(w) for w in non_symbol) / len(non_symbol) if non_symbol else 0,
        "gopher_alpha_words_ratio": sum(any(c.isalpha() for c in w) for w in words) / n if n else 0,
        "gopher_stop_words": len(set(STOP_WORDS) & set(words)),
        "gopher_hash_ratio": text.count("#") / n if n else 0,
        "gopher_ellipsis_ratio": (text.count("...") + text.count("…")) / n if n else 0,
        "gopher_bullet_lines_ratio": sum(s.lstrip().startswith(("•", "-")) for s in lines) / len(lines) if lines else 0,
        "gopher_ellipsis_lines_ratio": sum(s.rstrip().endswith(("...", "…")) for s in lines) / len(lines)
        if lines
        else 0,
    }
    paragraphs = re.split(r"\n{2,}", text.strip())
    g["gopher_dup_para_frac"] = find_duplicates(paragraphs)[0] / len(paragraphs)
    rep_lines = re.split("\n+", text)
    dl, dc = find_duplicates(rep_lines)
    g["gopher_dup_line_frac"] = dl / len(rep_lines)
    g["gopher_dup_line_char_frac"] = dc / len(text)
    for k in (2, 3, 4):
        grams = get_n_grams(words, k)
        g["gopher_top_%dgram_char_frac" % k] = find_top_duplicate(grams) / len(text) if grams else 0
    for k in (5, 10):
        g["gopher_dup_%dgram_char_frac" % k] = find_all_duplicate(words, k) / len(text)
    for key, terminal in (("c4_sentences", True), ("c4_sentences_any_end", False)):
        g[key] = c4_sentences(text, terminal, split_into_sentences)
    if c4_text is not None:
        kept = [l for l in c4_text.split("\n") if l.strip()]
        if kept:
            g["fineweb_line_punct_ratio"] = sum(l.endswith(tuple(TERMINAL_PUNCTUATION)) for l in kept) / len(kept)
            g["fineweb_short_line_ratio"] = sum(len(l) <= 30 for l in kept) / len(kept)
            g["fineweb_char_dup_ratio"] = find_duplicates(kept)[1] / len(c4_text.replace("\n", ""))
            g["fineweb_newline_ratio"] = c4_text.count("\n") / len(split_into_words(c4_text, "en"))
    return g


def c4_sentences(text, terminal, split_into_sentences):
    """C4QualityFilter's sentence count (up to a line that drops the document)."""
    from datatrove.pipeline.filters.c4_filters import CITATION_REGEX, END_PUNCTUATION, POLICY_SUBSTRINGS

    n = 0
    for line in text.splitlines():
        line = line.strip()
        words = line.split()
        if any(len(w) > 1000 for w in words):
            continue
        line = CITATION_REGEX.sub("", line)
        if terminal and (not line.endswith(END_PUNCTUATION) or line.endswith("...")):
            continue
        if len(words) < 3:
            continue
        low = line.lower()
        if "lorem ipsum" in low or "{" in line:
            return n
        if "javascript" in low or any(p in low for p in POLICY_SUBSTRINGS):
            continue
        n += len(split_into_sentences(line, "en"))
    return n


def preset_reason(preset, verdicts):
    chain = {
        "fineweb": ["gopher_repetition", "gopher_quality", ("c4_any_end", "c4"), "fineweb"],
        "gopher": ["gopher_repetition", "gopher_quality"],
        "c4": ["c4"],
    }[preset]
    for step in chain:
        key, name = step if isinstance(step, tuple) else (step, step)
        if verdicts[key] is not None:
            return "%s/%s" % (name, verdicts[key])
    return None


def close(a, b):
    return abs(a - b) <= max(0.005, 0.01 * max(abs(a), abs(b)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cowrex", default=os.path.join(ROOT, "target", "release", "cowrex"))
    ap.add_argument("--work", default=os.path.join(ROOT, "target", "signals-agreement"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--limit", type=int, default=0, help="only the first N documents")
    ap.add_argument("--min-agreement", type=float, default=0.995)
    ap.add_argument("--report", help="also write the report (Markdown) here")
    a = ap.parse_args()
    for root, _ in SOURCES:
        if not os.path.isdir(root):
            sys.exit("%s is missing: the agreement test needs ../shared/data" % root)
    os.makedirs(a.work, exist_ok=True)
    docs, reasons, cowrex_cpu, signals_s = run_cowrex(a.cowrex, a.work, build_warcs(a.work), a.j)
    if a.limit:
        docs = docs[: a.limit]
    with multiprocessing.Pool(a.j) as pool:
        judged = pool.map(judge, docs, chunksize=16)
    datatrove_s = sum(j[3] for j in judged)
    judged = [j[:3] for j in judged]
    out = []
    failed = False
    out.append("# cowrex's signals against datatrove's filters\n")
    out.append("%d documents with text (pages of every set and trafilatura-eval-dev).\n" % len(docs))
    out.append("| preset | same decision and reason | documents | dropped by datatrove | dropped by cowrex |")
    out.append("|---|---|---|---|---|")
    disagreements = []
    by_id = {d["id"]: d for d in docs}
    for preset in PRESETS:
        same = dt_dropped = cw_dropped = 0
        for doc_id, verdicts, _ in judged:
            want = preset_reason(preset, verdicts)
            got = reasons[preset].get(doc_id)
            dt_dropped += want is not None
            cw_dropped += got is not None
            if want == got:
                same += 1
            else:
                disagreements.append((preset, doc_id, want, got))
        share = same / len(judged) if judged else 1.0
        failed |= share < a.min_agreement
        out.append("| %s | %.4f | %d | %d | %d |" % (preset, share, len(judged), dt_dropped, cw_dropped))
    out.append(
        "\nCPU seconds on these documents: datatrove's four filters (FineWeb's chain, each filter on "
        "every document) %.1f; cowrex's signals (the `signals` stage of `process`) %.2f, %.0f× less; "
        "`cowrex process` with everything (reading, extraction, signals, JSONL) %.1f, %.1f× less."
        % (datatrove_s, signals_s, datatrove_s / max(signals_s, 1e-9), cowrex_cpu, datatrove_s / max(cowrex_cpu, 1e-9))
    )
    out.append("\n## Figures: share of documents within 1 % or 0.005\n")
    out.append("| signal | agree | documents |")
    out.append("|---|---|---|")
    for name in FIGURES:
        pairs = [(g[name], by_id[i]["signals"][name]) for i, _, g in judged if name in g]
        ok = sum(close(x, y) for x, y in pairs)
        out.append("| %s | %.4f | %d |" % (name, ok / len(pairs) if pairs else 1.0, len(pairs)))
    out.append("\n## Disagreements\n")
    figs = {i: g for i, _, g in judged}
    for preset, doc_id, want, got in disagreements:
        d = by_id[doc_id]
        filt = (want or got).split("/")[0]
        prefix = {"c4": "c4_", "fineweb": "fineweb_"}.get(filt, "gopher_")
        detail = ", ".join(
            "%s %s/%s" % (k, _fmt(figs[doc_id].get(k)), _fmt(d["signals"][k]))
            for k in FIGURES
            if k.startswith(prefix) and k in figs[doc_id] and not close(figs[doc_id][k], d["signals"][k])
        )
        out.append(
            "- %s %s (%s): datatrove %s, cowrex %s; figures datatrove/cowrex: %s"
            % (preset, doc_id, d["url"], want or "keeps", got or "keeps", detail or "all within tolerance")
        )
    report = "\n".join(out) + "\n"
    print(report)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as fh:
            fh.write(report)
    sys.exit(1 if failed else 0)


def _fmt(x):
    return "-" if x is None else ("%d" % x if float(x).is_integer() else "%.4f" % x)


if __name__ == "__main__":
    main()
