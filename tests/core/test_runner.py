"""The runner's scheduling of units: results in the order given."""


def test_side_by_side_returns_results_in_the_order_given_whatever_order_they_ran():
    """Units run costliest first, two at a time in worker processes, and come back in the
    order given; one at a time they run in the calling process."""
    from functools import partial

    from repro.core.runner import side_by_side

    units = [partial(pow, 2, k) for k in range(6)]
    cost = [1, 5, 2, 4, 3, 0]
    assert side_by_side(units, 2, cost=cost) == [1, 2, 4, 8, 16, 32]
    ran = []
    assert side_by_side(
        [lambda k=k: ran.append(k) or k for k in range(4)], 1, cost=[0, 3, 1, 2]
    ) == [
        0,
        1,
        2,
        3,
    ]
    assert ran == [1, 3, 2, 0]  # the costliest first


def test_methods_run_together_give_the_records_of_separate_tasks():
    """Methods fitted one after the other in one task per fold (``together``) have the
    records they have as separate tasks, one per (dataset, method, fold)."""
    from repro.core.runner import cross_validate
    from rulelab import OneRule, SetCoverRules
    from tests.conftest import load_or_skip

    load_or_skip("banknote")
    methods = {"1Rule": OneRule(), "RuSC": SetCoverRules(max_rules=3), "RuSC-2": SetCoverRules(2)}
    compared = ["dataset", "method", "fold", "error", "train_error", "n_rules", "n_terms"]

    def cv(**kw):
        return cross_validate(
            methods, ["banknote"], n_splits=3, cache=False, progress=False, n_jobs=2, **kw
        )[compared]

    together = cv(together=[("RuSC-2", "1Rule")])
    assert len(together) == 3 * len(methods)
    assert together.equals(cv())
