"""Quality signals: `Document.signals`, `Block.c4`, `cowrex.filter_reason`, the datatrove steps'
metadata, and the agreement of the presets with datatrove's own filters
(scripts/accuracy/signals_agreement.py on ../shared/data)."""

import re
import subprocess
import sys

import pytest

import cowrex
from conftest import REPO, SHARED, cowrex_bin, slow

PARAGRAPHS = [
    "The town of Riverside held its summer festival again this year, and people from the whole valley came to see it.",
    "Boats with lanterns sailed down the river after dark, while a brass band played on the old stone bridge.",
    "On the market square, farmers sold bread, cheese, honey and wine from the hills around the town.",
    "Children painted their faces, climbed the apple trees in the park and chased each other between the stalls.",
    "The mayor thanked the volunteers who had cleaned the banks of the river in the weeks before the event.",
    "Next year the organisers want to add a night market, a small film programme and more places to sit in the shade.",
]
ARTICLE = (
    "<html><body><nav><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li></ul></nav>"
    "<article><h1>The river festival returns</h1>"
    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + "<p>Enable JavaScript to see the comments.</p></article></body></html>"
)


def test_documents_have_signals_and_blocks_their_c4_fates():
    doc = cowrex.extract(ARTICLE, url="https://example.org/festival")
    s = doc.signals
    assert s is not None
    assert s["gopher_words"] > 100 and isinstance(s["gopher_words"], int)
    assert s["gopher_dup_5gram_char_frac"] == 0
    assert 3 <= s["gopher_mean_word_length"] <= 10
    assert s["gopher_stop_words"] >= 4
    assert s["c4_javascript_lines"] == 1
    # The text's lines and the blocks' C4 fates: the JavaScript line is the one dropped.
    fates = [b.c4 for b in doc.blocks if b.bpv <= doc.threshold]
    assert "javascript" in fates
    assert doc.to_dict()["signals"] == s
    assert cowrex.extract(ARTICLE, signals=False).signals is None


def test_filter_reason_applies_the_presets_and_requirements():
    doc = cowrex.extract(ARTICLE)
    assert cowrex.filter_reason(doc.signals, "gopher") is None
    short = cowrex.extract("<p>Just a few words here.</p>")
    # Repetition first: its one top 2-gram is most of the text.
    assert cowrex.filter_reason(short.signals, "gopher") == "gopher_repetition/top_2_gram"
    assert cowrex.filter_reason(short.signals, "c4") == "c4/too_few_sentences"
    assert cowrex.filter_reason(doc.signals, require=["gopher_words>=100000"]) == "require/gopher_words>=100000"
    with pytest.raises(ValueError, match="no signal"):
        cowrex.filter_reason(doc.signals, require=["gopher_wordz>1"])
    with pytest.raises(ValueError, match="invalid value 'dolma' for preset: expected one of fineweb, gopher, c4"):
        cowrex.filter_reason(doc.signals, "dolma")


@slow
def test_the_presets_agree_with_datatrove(tmp_path):
    """datatrove's filters on cowrex's text and `cowrex filter --preset` decide alike on at least
    99.5 % of the documents of ../shared/data's pages and trafilatura-eval-dev pages."""
    if not (SHARED / "pages" / "html").exists() or not (SHARED / "snippets" / "html").exists():
        pytest.skip(f"SKIPPED: {SHARED} is absent; this test needs ../shared/data")
    work = tmp_path
    r = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "accuracy" / "signals_agreement.py"), "--cowrex", cowrex_bin(), "--work", str(work)],
        capture_output=True,
        text=True,
    )
    report = r.stdout
    rows = dict(re.findall(r"^\| (fineweb|gopher|c4) \| ([0-9.]+) \|", report, re.M))
    assert set(rows) == {"fineweb", "gopher", "c4"}, report + r.stderr
    for preset, share in rows.items():
        assert float(share) >= 0.995, f"{preset}: {share}\n{report}"
    docs = int(re.search(r"^(\d+) documents with text", report, re.M).group(1))
    assert docs > 4000, report
    assert r.returncode == 0, report + r.stderr


def test_datatrove_metadata_holds_the_signals():
    from cowrex.datatrove import language_metadata

    doc = cowrex.extract(ARTICLE)
    meta = language_metadata(doc)
    assert meta["signals"] == doc.signals
    assert cowrex.filter_reason(meta["signals"], "c4") is None
