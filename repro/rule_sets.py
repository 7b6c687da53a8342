"""Paper 1's rule-set tables (Malioutov & Varshney 2013, Tables 1-2): the open stand-ins for
its baselines and the comparison of our cross-validated errors with the paper's."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = ["RipperClassifier", "paper1_baselines", "compare_to_paper", "agreement",
           "side_by_side", "plot_comparison"]


class RipperClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER (Cohen 1995) from the ``wittgenstein`` package as a scikit-learn classifier.

    RIPPER learns rules for one class and predicts the other by default; as in Cohen's
    implementation the rules are learned for the *less frequent* class of the training
    labels (learning them for the majority class is far worse, e.g. on ILPD). Numeric
    features are discretised by wittgenstein itself (``n_discretize_bins`` bins).

    Parameters
    ----------
    k : int, default=2
        Optimisation passes.
    n_discretize_bins : int, default=10
    random_state : int, optional
    """

    def __init__(self, k: int = 2, n_discretize_bins: int = 10, random_state=None):
        self.k = k
        self.n_discretize_bins = n_discretize_bins
        self.random_state = random_state

    def fit(self, X, y):
        try:
            import wittgenstein as lw
        except ImportError as err:  # pragma: no cover - optional dependency
            raise ImportError("RipperClassifier needs the 'wittgenstein' package: "
                              "pip install wittgenstein") from err
        X = _as_frame(X)
        y = np.asarray(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if self.classes_.size != 2:
            raise ValueError(f"RipperClassifier is binary; y has {self.classes_.size} classes")
        self.rule_class_ = self.classes_[int(np.argmin(counts))]
        target = (y == self.rule_class_).astype(int)
        self.ripper_ = lw.RIPPER(k=self.k, n_discretize_bins=self.n_discretize_bins,
                                 random_state=self.random_state)
        self.ripper_.fit(X.reset_index(drop=True), target, pos_class=1)
        self.ruleset_ = self.ripper_.ruleset_
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        X = _as_frame(X)
        fired = np.asarray(self.ripper_.predict(X.reset_index(drop=True)), dtype=bool)
        other = self.classes_[self.classes_ != self.rule_class_][0]
        return np.where(fired, self.rule_class_, other)

    def __str__(self) -> str:
        return str(getattr(self, "ruleset_", repr(self)))


def _as_frame(X) -> pd.DataFrame:
    return X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))


def paper1_baselines(random_state: int = 0, ripper: str = "jrip") -> dict:
    """The open stand-ins for the baselines of Malioutov & Varshney (2013), Table 1.

    ``CART`` (decision tree), ``TrBag`` (random forest, for Matlab's TreeBagger), ``kNN``,
    ``Discr`` (linear discriminant analysis, for Matlab's ``classify``), ``SVM`` (RBF) from
    scikit-learn with their default settings, as the paper used its tools' defaults; and
    ``RIPPER`` as the open rule-set learner standing in for SPSS's DList and C5.0, which
    have no faithful open implementation: ``ripper="jrip"`` is Weka's JRip (Cohen's
    algorithm, thresholds searched on the raw values; :mod:`repro.jrip`), ``"wittgenstein"``
    the Python package that bins every numeric feature first. Missing values are imputed
    (median), text/categorical columns one-hot encoded (ILPD's ``Gender``), and the
    distance- and margin-based learners (kNN, Discr, SVM) see standardised features; JRip
    takes missing values and categories as they are.
    """
    from repro.jrip import make_ripper
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    def prep(scale: bool):
        numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
        return ColumnTransformer([
            ("num", make_pipeline(*numeric), make_column_selector(dtype_include="number")),
            ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                  OneHotEncoder(handle_unknown="ignore", drop="if_binary")),
             make_column_selector(dtype_exclude="number")),
        ])

    def pipe(model, scale=False):
        return Pipeline([("prep", prep(scale)), ("model", model)])

    return {
        "CART": pipe(DecisionTreeClassifier(random_state=random_state)),
        "TrBag": pipe(RandomForestClassifier(random_state=random_state, n_jobs=1)),
        "kNN": pipe(KNeighborsClassifier(), scale=True),
        "Discr": pipe(LinearDiscriminantAnalysis(), scale=True),
        "SVM": pipe(SVC(kernel="rbf"), scale=True),
        "RIPPER": make_ripper(ripper, random_state),
    }


def compare_to_paper(summary: pd.DataFrame, paper: pd.DataFrame, value: str = "error"
                     ) -> pd.DataFrame:
    """Our mean and standard error beside the paper's number for every (dataset, method).

    ``summary`` comes from :func:`summarize`; ``paper`` is a long table with columns
    ``dataset``, ``method`` and ``value`` (e.g. ``repro.reference.paper_table``). The
    result has ``ours``, ``ours_se``, ``paper`` (NaN where the paper has no number or lost
    it) and ``diff = ours - paper``; methods only one side has are kept.
    """
    ours = summary.rename(columns={value: "ours", f"{value}_se": "ours_se"})
    keep = ["dataset", "method", "ours"] + (["ours_se"] if "ours_se" in ours else [])
    merged = ours[keep].merge(paper[["dataset", "method", value]].rename(columns={value: "paper"}),
                              on=["dataset", "method"], how="outer")
    merged["diff"] = merged["ours"] - merged["paper"]
    return merged


def agreement(comparison: pd.DataFrame, methods, *, mean_tol: float = 0.01,
              max_tol: float = 0.05) -> pd.DataFrame:
    """The agreement test of a reproduction, one row per method.

    Over the datasets where both numbers exist: our mean must be at most the paper's mean
    + ``mean_tol``, and no dataset worse than the paper's by more than ``max_tol``.
    """
    rows = []
    for method in methods:
        both = comparison[(comparison.method == method) & comparison.ours.notna()
                          & comparison.paper.notna()]
        if both.empty:
            rows.append({"method": method, "datasets": 0, "holds": np.nan})
            continue
        worst = both.loc[both["diff"].idxmax()]
        mean_ok = both.ours.mean() <= both.paper.mean() + mean_tol
        max_ok = worst["diff"] <= max_tol
        rows.append({"method": method, "datasets": len(both), "mean_ours": both.ours.mean(),
                     "mean_paper": both.paper.mean(), "mean_ok": bool(mean_ok),
                     "worst_dataset": worst.dataset, "worst_gap": worst["diff"],
                     "worst_ok": bool(max_ok), "holds": bool(mean_ok and max_ok)})
    return pd.DataFrame(rows)


def side_by_side(comparison: pd.DataFrame, methods, digits: int = 3) -> pd.DataFrame:
    """A printable table: one row per dataset, per method ``ours ± se (paper)``; ``(-)`` where
    the paper has no number for the cell."""
    def cell(row):
        if pd.isna(row.ours):
            return "" if pd.isna(row.paper) else f"paper {row.paper:.{digits}f}"
        se = f" ± {row.ours_se:.{digits}f}" if "ours_se" in row and pd.notna(row.ours_se) else ""
        paper = "(-)" if pd.isna(row.paper) else f"({row.paper:.{digits}f})"
        return f"{row.ours:.{digits}f}{se} {paper}"
    sub = comparison[comparison.method.isin(methods)].copy()
    sub["cell"] = sub.apply(cell, axis=1)
    table = sub.pivot(index="dataset", columns="method", values="cell")
    return table[[m for m in methods if m in table.columns]].fillna("")


def plot_comparison(comparison: pd.DataFrame, methods, ncols: int = 4, value: str = "test error"):
    """One panel per dataset: our mean (± standard error) beside the paper's number for
    every method; methods without a paper number show ours only."""
    import matplotlib.pyplot as plt

    datasets = sorted(comparison.dataset.unique())
    nrows = int(np.ceil(len(datasets) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.8 * nrows), squeeze=False)
    x = np.arange(len(methods))
    for ax, ds in zip(axes.ravel(), datasets):
        sub = comparison[comparison.dataset == ds].set_index("method").reindex(methods)
        ax.errorbar(x - 0.12, sub.ours, yerr=sub.get("ours_se"), fmt="o", ms=4, label="ours")
        ax.plot(x + 0.12, sub.paper, "s", ms=4, color="0.45", label="paper")
        ax.set_xticks(x, methods, rotation=60, fontsize=7)
        ax.set_title(ds, fontsize=9)
    for ax in axes.ravel()[len(datasets):]:
        ax.set_visible(False)
    axes[0, 0].set_ylabel(value)
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig
