#!/usr/bin/env python3
"""Check that the library's reference (`cargo doc`) is the crate's root alone, and closed.

Reads `target/doc/cowrex` as `cargo doc --no-deps -p cowrex` wrote it and fails when:
- a module has a page (every module is `#[doc(hidden)]`; the root re-exports what users need);
- a documented declaration, field or method signature names a type without a link, i.e. a type
  the reference does not document;
- a page links to a page that does not exist or to a hidden item's redirect;
- a doc comment's link was left unresolved (rendered as `[name]`).
Prints the number of documented items. Usage: scripts/check/api_surface.py [DOC_DIR]
"""

import glob
import html
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "target/doc/cowrex"
# Words in code that are not type names: the standard associated items, enum values of
# `Option`/`Result`, rustdoc's "Show N fields", and generic parameters of `Iterator`'s methods.
NOT_TYPES = set("Self Item Output Target Err Ok Some None Show FromA FromB St".split())
SIGNATURES = re.compile(
    r'<pre class="rust item-decl">(.*?)</pre>'
    r'|<h4 class="code-header">(.*?)</h4>'
    r'|class="structfield[^"]*"[^>]*>.*?<code>(.*?)</code>',
    re.S,
)


def is_redirect(text):
    return 'http-equiv="refresh"' in text[:800]


def main():
    if not os.path.isfile(os.path.join(ROOT, "index.html")):
        sys.exit(f"{ROOT}/index.html is missing: run `cargo doc --no-deps -p cowrex` first")
    problems = []
    items = []
    for path in sorted(glob.glob(ROOT + "/**/*.html", recursive=True)):
        rel = os.path.relpath(path, ROOT)
        text = open(path, encoding="utf-8").read()
        if is_redirect(text) or rel == "all.html":
            continue
        if rel.endswith("index.html"):
            if rel != "index.html":
                problems.append(f"{rel}: a module is documented; hide it and re-export its items")
            continue
        if "/" in rel:
            problems.append(f"{rel}: an item documented outside the root")
        items.append(rel)

    for rel in ["index.html"] + items:
        text = open(os.path.join(ROOT, rel), encoding="utf-8").read()
        for target in re.findall(r'href="([^"#]+)', text):
            if target.startswith(("http:", "https:")) or not target.endswith(".html"):
                continue
            resolved = os.path.normpath(os.path.join(ROOT, os.path.dirname(rel), target))
            inside = os.path.relpath(resolved, ROOT)
            if inside.startswith(".."):
                continue  # the standard library's or another crate's pages
            if not os.path.isfile(resolved) or "/" in inside:
                problems.append(f"{rel}: links to {inside}, which the reference does not document")
        for name in re.findall(r"\[<code>([^<]*)</code>\]", text):
            problems.append(f"{rel}: unresolved link [`{name}`]")
        if rel == "index.html":
            continue
        # The item's own declaration and its impls; not the auto and blanket traits.
        for cut in ('id="synthetic-implementations"', 'id="blanket-implementations"'):
            at = text.find(cut)
            if at > 0:
                text = text[:at]
        own = os.path.basename(rel).split(".")[1]
        variants = set(re.findall(r'id="variant\.(\w+)"', text))
        for m in SIGNATURES.finditer(text):
            code = next(g for g in m.groups() if g is not None)
            code = re.sub(r"<a [^>]*>.*?</a>", " ", code, flags=re.S)
            code = html.unescape(re.sub(r"<[^>]+>", " ", code))
            code = re.sub(r"//.*", "", code)
            for word in re.findall(r"(?<![\w\"'])([A-Z][A-Za-z0-9_]*)\b", code):
                if len(word) == 1 or word in NOT_TYPES or word in variants or word == own:
                    continue
                problems.append(f"{rel}: shows `{word}`, a type the reference does not document")

    for p in sorted(set(problems)):
        print(p)
    print(f"{len(items)} documented items, all at the crate's root")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
