#!/usr/bin/env python3
"""Write the good text of texrex's annotated training pages as JSON lines, one page per line.

Usage: python3 scripts/train/profile_texts.py LANG OUT.jsonl   (LANG: de, en, fr or sv)

Reads ../shared/data/texrex-boilerplate/training_data/LANG/annotated/*.txt.gpg (one block per
line, `0<TAB>text` for content, XML-escaped), decrypts each with gpg in memory, and writes
{"text": the content blocks joined by newlines}. `cowrex train profile` reads the result;
scripts/train/train_models.sh runs both. The output is derived from research-only data: keep it out
of the repository (the script writes wherever OUT is; train_models.sh uses a temporary file).
"""
import html
import json
import pathlib
import subprocess
import sys


def main():
    lang, out = sys.argv[1], sys.argv[2]
    root = pathlib.Path(__file__).resolve().parents[3] / "shared/data/texrex-boilerplate/training_data"
    files = sorted((root / lang / "annotated").glob("*.txt.gpg"))
    if not files:
        sys.exit(f"profile_texts.py: no annotated pages in {root / lang}")
    with open(out, "w", encoding="utf-8") as f:
        for p in files:
            data = subprocess.run(
                ["gpg", "--batch", "--quiet", "--passphrase", "eiruC", "-d", str(p)],
                check=True, capture_output=True).stdout.decode("utf-8", "replace")
            blocks = [html.unescape(line[2:]) for line in data.splitlines() if line.startswith("0\t")]
            f.write(json.dumps({"text": "\n".join(blocks)}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
