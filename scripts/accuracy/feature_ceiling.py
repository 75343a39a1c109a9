#!/usr/bin/env python3
"""How well can *any* classifier do on texrex's 37 features? A check on texrex's Table 4.

Cross-validates scikit-learn's HistGradientBoostingClassifier on ../shared/data/texrex's
boilerplate.<lang>.dat with the folds `cowrex train mlp --cv 10` uses (row i in fold i mod 10)
and prints the accuracy at the default decision. Used in docs/models.md to show that the
paper's fr and sv figures are out of reach on these data sets for any classifier, not only for
cowrex's MLP.

Usage: pip install scikit-learn && python3 scripts/accuracy/feature_ceiling.py [en de fr sv]
"""
import os
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import cross_val_predict

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "texrex")


def load(lang):
    with open(os.path.join(DATA, "boilerplate.%s.dat" % lang)) as f:
        lines = f.read().split("\n")[1:]
    x = [[float(v) for v in lines[i].split()] for i in range(0, len(lines) - 1, 2)]
    y = [float(lines[i + 1]) > 0.5 for i in range(0, len(lines) - 1, 2)]
    return np.array(x), np.array(y)


for lang in sys.argv[1:] or ["en", "de", "fr", "sv"]:
    x, y = load(lang)
    idx = np.arange(len(y))
    folds = [(idx[idx % 10 != f], idx[idx % 10 == f]) for f in range(10)]
    p = cross_val_predict(HistGradientBoostingClassifier(max_iter=300, random_state=0), x, y, cv=folds)
    print("%s: 10-fold accuracy %.4f" % (lang, (p == y).mean()))
