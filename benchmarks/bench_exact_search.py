"""The exact greedy search of the rules-first classifier: its per-candidate work, before and
after, side by side.

    python benchmarks/bench_exact_search.py [--m 1000] [--rules 40] [--corpus] [--threshold 1.3]

The exact search of ``RulesFirstClassifier`` refits its l2 logistic base once per
candidate feature and step (tens of thousands of L-BFGS-B runs of a few milliseconds) and
reads, per feature and step, the samples the feature's rule would newly cover. This
script fits the same model four ways on the same rows and prints the CPU seconds of each
and their ratios to the first:

1. as before: every refit through ``scipy.optimize.minimize``, and each feature's samples
   sliced out of the design ``X`` (a column of a CSR matrix costs a pass over all of it);
2. the refits through :func:`rulelab.rulesfirst._refit.lbfgsb`, which drives scipy's own
   L-BFGS-B step routine without the wrappers ``minimize`` puts around every evaluation;
3. also each feature's samples read from the coverage matrix (CSC) the search keeps
   anyway (``_State.column``);
4. as now: also, on a sparse design, the rows a step's refits can use sliced and
   transposed once per step instead of once per refit (``LogisticRefit.restrict``; the
   synthetic design is dense, so there it changes nothing).

The four fits must learn the same rules and give the same probabilities, bit for bit
(the script exits with an error otherwise).

Two problems: the costliest fit of notebook 06's Fig. 2 (right), the synthetic data of
section 7.1 with ``--m`` training rows, ``--rules`` rules and every feature a candidate
(``min_purity=0``); and, with ``--corpus``, the sentiment sweep's hardest setting, one
draw of the labelled sentences (``repro.rules_first.text``) at ``--threshold`` with the
support floors read as the threshold (``reading="score"``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from unittest import mock

import numpy as np
import scipy.sparse as sp

os.environ.setdefault("OMP_NUM_THREADS", "1")


def _sliced(state, j: int) -> np.ndarray:
    """The samples with feature ``j`` > 0, sliced out of the design (the way before)."""
    col = state.X[:, j]
    col = col.toarray() if sp.issparse(col) else np.asarray(col)
    return col.ravel() > 0


WAYS = {
    "before (minimize, X columns)": (False, True, False),
    "direct L-BFGS-B loop": (True, True, False),
    "and coverage columns": (True, False, False),
    "and the step's design (now)": (True, False, True),
}


def _fit_ways(make, X, y):
    from rulelab.rulesfirst import _refit, _search

    make().fit(X[:50], y[:50])  # warm up: imports and compiled kernels are not timed
    out = {}
    for way, (direct, sliced, within) in WAYS.items():
        routine = _refit._step_routine if direct else (lambda: None)
        column = _sliced if sliced else _search._State.column
        restrict = _refit.LogisticRefit.restrict if within else (lambda self, rows: None)
        with (
            mock.patch.object(_refit, "_step_routine", routine),
            mock.patch.object(_search._State, "column", column),
            mock.patch.object(_refit.LogisticRefit, "restrict", restrict),
        ):
            start = time.process_time()
            model = make().fit(X, y)
            out[way] = (model, time.process_time() - start)
    return out


def _same(a, b, X) -> bool:
    return str(a.rules_) == str(b.rules_) and np.array_equal(a.predict_proba(X), b.predict_proba(X))


def _report(title, out, X) -> bool:
    models = [model for model, _ in out.values()]
    same = all(_same(models[0], other, X) for other in models[1:])
    first = next(iter(out.values()))[1]
    print(f"{title}: {len(models[-1].rules_)} rules")
    for way, (_, t) in out.items():
        print(f"  {way:<30} {t:8.1f} CPU s   {first / t:5.2f}x")
    print(f"  same rules and probabilities: {same}", flush=True)
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=1000)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--threshold", type=float, default=1.3)
    args = ap.parse_args()

    from rulelab import RulesFirstClassifier, make_rules_first

    X, y, _ = make_rules_first(args.m, random_state=0)
    make = lambda: RulesFirstClassifier(  # noqa: E731
        penalty="l2",
        max_rules=args.rules,
        min_purity=0.0,
        early_stopping=False,
        search="exact",
        random_state=0,
    )
    ok = _report(f"synthetic data, m = {args.m}", _fit_ways(make, X, y), X)
    if args.corpus:
        from repro.rules_first import text as tx
        from repro.rules_first.tweets import make_stem_vectorizer

        corpus = "sentiment_labelled_sentences"
        s = tx._splits(corpus, 0)  # the sweep's first draw: development set -> test set
        vec = make_stem_vectorizer()
        X = vec.fit_transform(s.dev_text)
        names = vec.get_feature_names_out()
        make = lambda: tx.make_greedy(  # noqa: E731
            corpus, args.threshold, "linear", 0, names, reading="score"
        )
        ok &= _report(f"labelled sentences, t = {args.threshold}", _fit_ways(make, X, s.dev_y), X)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
