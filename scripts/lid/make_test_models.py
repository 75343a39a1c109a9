#!/usr/bin/env python3
"""Make the tiny fastText models that tests/user_model.rs reads, and what Python predicts.

Run with the official `fasttext` package (pip `fasttext-wheel`, numpy < 2):

    python tests/make_models.py tests/data

Writes, from made-up text in OpenLID-style labels (`__label__deu_Latn`):
- tiny-softmax.bin: softmax loss, char n-grams 2..4, word bigrams (as OpenLID/GlotLID);
- tiny-softmax.ftz: the same quantised (qnorm, pruned to 300 n-gram rows);
- tiny-hs.bin, tiny-ova.bin: hierarchical softmax and one-vs-all losses;
- tiny-many.ftz: 300 labels, so that the output matrix is quantised too (qout);
- tiny-expected.tsv: `MODEL<TAB>TEXT<TAB>label prob label prob ...` (k=3) for the test texts.
"""
import os
import random
import sys
import tempfile

import fasttext

SYLLABLES = {
    "deu_Latn": "sch ein der die und ich ung ber ver ge ten en st ach ü ö ä ß zu heit keit".split(),
    "fra_Latn": "le la les et que qu ou eau ai oi è é ç tion ment ne pas un une des".split(),
    "rus_Cyrl": "пр ст но ов ен ра то ко во ни ли ть ся ый ая не на по за от".split(),
    "ell_Grek": "το τα και να ου αι ει ος ης ων σ ζ ψ ξ με πο στ ει αν".split(),
}
TEXTS = [
    "scheinder ungber verge",
    "lequ eauoi tionment",
    "простно овен ратоко",
    "τοτα καινα ουαι",
    "sch und ich le la",
    "",
    "a </s> b",
    "__label__deu_Latn ung",
    "x" * 300,
    "unknown zzz qqq",
]


def words(rng, label, n):
    syl = SYLLABLES[label]
    return " ".join("".join(rng.choice(syl) for _ in range(rng.randint(1, 3))) for _ in range(n))


def write_training(path, labels, lines_per_label, rng, vocab=None):
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(lines_per_label):
            for lab in labels:
                src = vocab(lab) if vocab else lab
                f.write(f"__label__{lab} {words(rng, src, rng.randint(3, 12))}\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(7)
    tmp = tempfile.mkdtemp()
    train = os.path.join(tmp, "train.txt")
    write_training(train, list(SYLLABLES), 150, rng)
    common = dict(input=train, dim=8, epoch=15, lr=0.5, minn=2, maxn=4, bucket=1000, thread=1,
                  seed=1, verbose=0)
    models = {}
    m = fasttext.train_supervised(loss="softmax", wordNgrams=2, **common)
    m.save_model(os.path.join(out, "tiny-softmax.bin"))
    models["tiny-softmax.bin"] = m
    m.quantize(input=train, qnorm=True, cutoff=300, retrain=False, thread=1, verbose=0)
    m.save_model(os.path.join(out, "tiny-softmax.ftz"))
    models["tiny-softmax.ftz"] = m
    for loss in ("hs", "ova"):
        m = fasttext.train_supervised(loss=loss, wordNgrams=1, **{**common, "bucket": 500})
        m.save_model(os.path.join(out, f"tiny-{loss}.bin"))
        models[f"tiny-{loss}.bin"] = m
    # 300 labels (made-up languages reusing the four syllable sets): qout needs >= 256 rows.
    many = os.path.join(tmp, "many.txt")
    langs = list(SYLLABLES)
    labels = [f"l{i:03d}_{langs[i % 4].split('_')[1]}" for i in range(300)]
    write_training(many, labels, 10, rng, vocab=lambda lab: langs[int(lab[1:4]) % 4])
    m = fasttext.train_supervised(input=many, dim=8, epoch=50, lr=1.0, minn=2, maxn=3,
                                  bucket=1000, loss="softmax", thread=1, seed=1, verbose=0)
    m.quantize(input=many, qnorm=True, qout=True, cutoff=300, retrain=False, thread=1, verbose=0)
    m.save_model(os.path.join(out, "tiny-many.ftz"))
    models["tiny-many.ftz"] = m
    with open(os.path.join(out, "tiny-expected.tsv"), "w", encoding="utf-8") as f:
        for name in models:
            m = fasttext.load_model(os.path.join(out, name))
            for text in TEXTS:
                labels, probs = m.predict(text, k=3)
                pairs = " ".join(f"{l.removeprefix('__label__')} {p:.6f}" for l, p in zip(labels, probs))
                f.write(f"{name}\t{text}\t{pairs}\n")


if __name__ == "__main__":
    main()
