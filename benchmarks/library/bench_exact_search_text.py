"""The exact greedy search on notebook 06's costliest text unit: this tree against an older
revision, side by side.

    python -m benchmarks.library.bench_exact_search_text [--corpus semeval2017_task4a]
        [--threshold 1.0] [--reading filters] [--max-rules 100] [--against REV]

Notebook 06's sentiment sweep (``repro.rules_first.text``) fits one greedy l2 model per
candidate threshold t; the lowest t admits the most candidate stems, each refitted at every
step. This script builds the data of one such unit (the first draw, development set ->
test set, as ``threshold_sweep`` gives it with the notebook's 4:1 tweet balance) and fits
the same model on it with the ``rulelab`` of ``--against`` (a git revision imported under
another name) and with this tree's, and prints the CPU seconds of each and their ratio.

The default, 49c7c3d, is the last revision before the search's refits multiplied their
sparse designs through scipy's kernel directly, took a refit's margins from the whole
split instead of a slice of its rows, and left the training split's change uncomputed for
candidates whose evaluation change is already above another's (it only breaks ties).
The two fits must choose the same rules in the same order, with the same history, and give
the same test probabilities, bit for bit (the script exits with an error otherwise).
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

BALANCE = {"semeval2017_task4a": 4.0}  # notebook 06's TWEET_BALANCE; the sentences: their own


def _as_in(package, model):
    """The same estimator, with the same parameters, from ``package``."""
    return getattr(package, type(model).__name__)(**model.get_params(deep=False))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpus",
        default="semeval2017_task4a",
        choices=["semeval2017_task4a", "sentiment_labelled_sentences"],
    )
    ap.add_argument("--threshold", type=float, default=1.0)
    ap.add_argument("--reading", default="filters", choices=["filters", "score"])
    ap.add_argument("--max-rules", type=int, default=100)
    add_against(ap, default="49c7c3d")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    old_pkg = revision_package(args.against, Path(tmp.name))

    from repro.rules_first import text as tx
    from repro.rules_first.tweets import make_stem_vectorizer

    s = tx._splits(args.corpus, 0, pos_per_neg=BALANCE.get(args.corpus))
    vec = make_stem_vectorizer()
    X, Xt = vec.fit_transform(s.dev_text), vec.transform(s.test_text)
    names = vec.get_feature_names_out()

    def make():
        return tx.make_greedy(
            args.corpus,
            args.threshold,
            "linear",
            0,
            names,
            args.max_rules,
            reading=args.reading,
        )

    for fresh in (lambda: _as_in(old_pkg, make()), make):  # imports and kernels not timed
        fresh().set_params(max_rules=1).fit(X[:300], s.dev_y[:300])
    old_s, old = cpu(_as_in(old_pkg, make()).fit, X, s.dev_y)
    new_s, new = cpu(make().fit, X, s.dev_y)
    same = (
        str(old.rules_) == str(new.rules_)
        and old.history_ == new.history_
        and old.eval_error_ == new.eval_error_
        and np.array_equal(old.predict_proba(Xt), new.predict_proba(Xt))
    )
    print(
        f"{args.corpus}, t = {args.threshold:g}, reading {args.reading!r}: "
        f"{new.n_candidates_} candidates, {len(new.rules_)} rules"
    )
    print(f"  {args.against:<12} {old_s:8.1f} CPU s")
    print(f"  {'this tree':<12} {new_s:8.1f} CPU s   {ratio(old_s, new_s):5.2f}x")
    print(f"  same rules, history and test probabilities: {same}", flush=True)
    tmp.cleanup()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
