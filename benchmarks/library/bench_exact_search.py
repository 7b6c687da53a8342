"""The exact greedy search of the rules-first classifier: this tree against an older revision,
side by side.

    python -m benchmarks.library.bench_exact_search [--m 1000] [--rules 40] [--corpus]
                                                    [--threshold 1.3] [--against REV]

The exact search of ``RulesFirstClassifier`` refits its l2 logistic base once per
candidate feature and step (tens of thousands of L-BFGS-B runs of a few milliseconds) and
reads, per feature and step, the samples the feature's rule would newly cover. This
script fits the same model on the same rows with the ``rulelab`` of ``--against`` (a git
revision imported under another name) and with this tree's, and prints the CPU seconds of
each and their ratio. The default, 6493566, is the last revision before the three steps
the CHANGELOG measures; each step's own revision isolates it:

1. efebc5c: the refits through :func:`rulelab.rulesfirst._refit.lbfgsb`, which drives
   scipy's own L-BFGS-B step routine without the wrappers ``scipy.optimize.minimize`` puts
   around every evaluation;
2. 434bb13: each feature's samples read from the coverage matrix (CSC) the search keeps
   anyway, not sliced out of the design ``X``;
3. 52fceca: on a sparse design, the rows a step's refits can use sliced and transposed
   once per step instead of once per refit (``LogisticRefit.restrict``; the synthetic
   design is dense, so there it changes nothing).

The two fits must learn the same rules and give the same probabilities, bit for bit
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
import tempfile
from pathlib import Path

import numpy as np

from benchmarks.timing import add_against, cpu, ratio, revision_package

os.environ.setdefault("OMP_NUM_THREADS", "1")


def _as_in(package, model):
    """The same estimator, with the same parameters, from ``package``."""
    return getattr(package, type(model).__name__)(**model.get_params(deep=False))


def _fit_both(old_pkg, make, X, y):
    """(old model, its CPU seconds), (new model, its CPU seconds) for ``make()``'s model."""
    for fresh in (lambda: _as_in(old_pkg, make()), make):  # imports and kernels not timed
        fresh().fit(X[:50], y[:50])
    old_s, old = cpu(_as_in(old_pkg, make()).fit, X, y)
    new_s, new = cpu(make().fit, X, y)
    return (old, old_s), (new, new_s)


def _report(title, both, X, against) -> bool:
    (old, old_s), (new, new_s) = both
    same = str(old.rules_) == str(new.rules_) and np.array_equal(
        old.predict_proba(X), new.predict_proba(X)
    )
    print(f"{title}: {len(new.rules_)} rules")
    print(f"  {against:<12} {old_s:8.1f} CPU s")
    print(f"  {'this tree':<12} {new_s:8.1f} CPU s   {ratio(old_s, new_s):5.2f}x")
    print(f"  same rules and probabilities: {same}", flush=True)
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=1000)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--threshold", type=float, default=1.3)
    add_against(ap, default="6493566")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    old_pkg = revision_package(args.against, Path(tmp.name))

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
    both = _fit_both(old_pkg, make, X, y)
    ok = _report(f"synthetic data, m = {args.m}", both, X, args.against)
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
        both = _fit_both(old_pkg, make, X, s.dev_y)
        ok &= _report(f"labelled sentences, t = {args.threshold}", both, X, args.against)
    tmp.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
