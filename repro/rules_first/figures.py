"""Notebook 06's figures, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, one_setting, spec


def rulesfirst_fig2(left: pd.DataFrame, right: pd.DataFrame):
    """Paper 5, Fig. 2: accuracy against m (left) and against the rules allowed (right)."""
    from repro.rules_first.summary import plot_fig2

    return plot_fig2(left, right)


def rulesfirst_table1(crossing: pd.DataFrame, k_fixed: int = 10, d_fixed: int = 100):
    """Paper 5, Table 1 measured: samples needed for the ``target`` error (a constant
    column) against k and against B."""
    from repro.rules_first.summary import plot_sample_complexity

    return plot_sample_complexity(
        crossing, float(one_setting(crossing, "target")), k_fixed=k_fixed, d_fixed=d_fixed
    )


def rulesfirst_fig3_twitter(sweep: pd.DataFrame):
    """Paper 5, Fig. 3 on the tweets: accuracy against the candidate threshold, with the
    paper's best thresholds shaded."""
    from repro.rules_first.summary import plot_fig3

    return plot_fig3({one_setting(sweep, "corpus"): sweep}, paper_t=1.7)


def rulesfirst_fig3_sls(sweep: pd.DataFrame):
    """Paper 5, Fig. 3 repeated on the sentiment-labelled sentences."""
    from repro.rules_first.summary import plot_fig3

    return plot_fig3({one_setting(sweep, "corpus"): sweep})


FIGURES: dict[str, FigureSpec] = {
    "rulesfirst_fig2": spec(
        rulesfirst_fig2, "06_rules_first", "rulesfirst_fig2_left.csv", "rulesfirst_fig2_right.csv"
    ),
    "rulesfirst_table1": spec(rulesfirst_table1, "06_rules_first", "rulesfirst_table1.csv"),
    "rulesfirst_fig3_twitter": spec(
        rulesfirst_fig3_twitter, "06_rules_first", "rulesfirst_fig3_twitter.csv"
    ),
    "rulesfirst_fig3_sls": spec(rulesfirst_fig3_sls, "06_rules_first", "rulesfirst_fig3_sls.csv"),
}
