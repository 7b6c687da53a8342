"""Paper 1's baselines as the benchmarks run them: open stand-ins for the tools of
Malioutov & Varshney (2013), Table 1 (scikit-learn at its defaults, and RIPPER)."""

from __future__ import annotations

__all__ = ["paper1_baselines"]


def paper1_baselines(random_state: int = 0, ripper: str = "jrip") -> dict:
    """The open stand-ins for the baselines of Malioutov & Varshney (2013), Table 1.

    ``CART`` (decision tree), ``TrBag`` (random forest, for Matlab's TreeBagger), ``kNN``,
    ``Discr`` (linear discriminant analysis, for Matlab's ``classify``), ``SVM`` (RBF) from
    scikit-learn with their default settings, as the paper used its tools' defaults; and
    ``RIPPER`` as the open rule-set learner standing in for SPSS's DList and C5.0, which
    have no faithful open implementation: ``ripper="jrip"`` is Weka's JRip (Cohen's
    algorithm, thresholds searched on the raw values; :mod:`repro.peers.jrip`), ``"wittgenstein"``
    the Python package that bins every numeric feature first. Missing values are imputed
    (median), text/categorical columns one-hot encoded (ILPD's ``Gender``), and the
    distance- and margin-based learners (kNN, Discr, SVM) see standardised features; JRip
    takes missing values and categories as they are.
    """
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    from repro.peers.jrip import make_ripper

    def prep(scale: bool):
        numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
        return ColumnTransformer(
            [
                ("num", make_pipeline(*numeric), make_column_selector(dtype_include="number")),
                (
                    "cat",
                    make_pipeline(
                        SimpleImputer(strategy="most_frequent"),
                        OneHotEncoder(handle_unknown="ignore", drop="if_binary"),
                    ),
                    make_column_selector(dtype_exclude="number"),
                ),
            ]
        )

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
