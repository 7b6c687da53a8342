"""A weighted vote of AND-clauses (:class:`WeightedRuleSet`) and the link of a vote's loss."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from ._values import _nonfinite
from .clauses import _and_clauses_with, _clause, _ClauseCollection
from .query import _QUERY_FALSE
from .sql import _check_dialect

__all__ = ["WeightedRuleSet", "weighted_from_dict"]


class _VoteLink:
    """What a vote's loss says its score means: ``P(y = 1) = 1 / (1 + exp(-scale F))``.

    Shared by :class:`WeightedRuleSet` and :class:`WeightedVote`, so that every weighted
    vote states its probability the same way: the link follows from the loss the weights
    minimise, and a hinge loss declares none.
    """

    #: Each loss's link from the vote ``F`` to ``P(y = 1)``: ``1 / (1 + exp(-scale F))``.
    LINK_SCALE = {"exponential": 2.0, "logistic": 1.0, "hinge": None}

    loss: str

    def _check_loss(self, loss: str) -> str:
        if loss not in self.LINK_SCALE:
            raise ValueError(f"loss must be one of {sorted(self.LINK_SCALE)}, got {loss!r}")
        return loss

    @property
    def has_probability(self) -> bool:
        """Whether the vote's loss gives it a probability (not for a hinge loss)."""
        return self.LINK_SCALE[self.loss] is not None

    def link(self, score: np.ndarray) -> np.ndarray:
        """``P(y = 1)`` from the vote ``score``, through the link of the vote's loss."""
        if not self.has_probability:
            raise ValueError(
                f"a vote fitted with the {self.loss} loss has no probability "
                "scale: use score() (or fit with the logistic loss)"
            )
        return 1.0 / (1.0 + np.exp(-self.LINK_SCALE[self.loss] * np.asarray(score)))

    def probability(self, X) -> np.ndarray:
        """``P(y = 1)`` on every row: the vote through the link of its loss."""
        return self.link(self.score(X))

    def evaluate(self, X) -> np.ndarray:
        """Boolean array: the vote is strictly positive (ties go to the negative class)."""
        return self.score(X) > 0


class WeightedRuleSet(_VoteLink, _ClauseCollection):
    """A weighted vote of AND-clauses: predict 1 where ``sum_t C_t [clause_t(x)] > 0``.

    The output of confidence-rated boosting (Cohen & Singer 1999; Malioutov & Varshney
    2013, Algorithm 1). A round that chose the *default rule* holds the empty AND-clause,
    which is true on every sample (it prints as ``TRUE``), so its weight is a constant vote.

    Parameters
    ----------
    clauses : sequence of Clause
        AND-clauses, one per boosting round (the empty clause for the default rule).
    weights : sequence of float
        The confidence ``C_t`` of each clause; a negative weight votes for the negative class.
    then : str, default="1"
        What the rule set predicts when the vote is positive.
    loss : {"exponential", "logistic", "hinge"}, default="exponential"
        The loss the weights minimise, which fixes what the vote means as a probability
        (:meth:`probability`): boosting's exponential loss gives ``1 / (1 + exp(-2F))``
        (Friedman, Hastie & Tibshirani 2000), the logistic loss ``1 / (1 + exp(-F))``, and
        a hinge loss none.
    """

    def __init__(self, clauses=(), weights=(), *, then: str = "1", loss: str = "exponential"):
        clauses, weights = _and_clauses_with(
            clauses, (float(w) for w in weights), "weight", "WeightedRuleSet"
        )
        self.clauses = clauses
        self.weights = weights
        self.then = then
        self.loss = self._check_loss(loss)

    def score(self, X: pd.DataFrame) -> np.ndarray:
        """The weighted vote ``sum_t C_t [clause_t(x)]`` on every row of ``X``."""
        out = np.zeros(len(X))
        for clause, weight in zip(self.clauses, self.weights):
            out += weight * clause.evaluate(X)
        return out

    def simplified(self) -> WeightedRuleSet:
        """The same vote with every clause :meth:`Clause.simplified` (same weights, same
        score on every row)."""
        return WeightedRuleSet(
            [c.simplified() for c in self.clauses], self.weights, then=self.then, loss=self.loss
        )

    def __eq__(self, other) -> bool:
        return (
            type(self) is type(other)
            and self.clauses == other.clauses
            and np.allclose(self.weights, other.weights)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.clauses))

    def __str__(self) -> str:
        if not self.clauses:
            return f"IF FALSE\nTHEN {self.then}"
        lines = [
            f"  {w:+.3f} * ({t})" if c.n_terms > 1 else f"  {w:+.3f} * {t}"
            for c, t, w in zip(self.clauses, self.clause_texts(), self.weights)
        ]
        return "IF score > 0 THEN " + self.then + ", where score =\n" + "\n".join(lines)

    def __repr__(self) -> str:
        return f"WeightedRuleSet({len(self.clauses)} clauses, {self.n_terms} terms)"

    def to_dict(self) -> dict:
        weights = [_nonfinite(w) or w for w in self.weights]  # NaN/infinity as text
        return {
            "type": "weighted",
            "then": self.then,
            "loss": self.loss,
            "weights": weights,
            "clauses": [c.to_dict() for c in self.clauses],
        }

    def _finite_weights(self) -> tuple[float, ...]:
        bad = [w for w in self.weights if not math.isfinite(w)]
        if bad:
            raise ValueError(
                f"the rule set has non-finite weights {bad[:3]}: a vote with them "
                "has no value to export"
            )
        return self.weights

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL ``WHERE`` expression: the weighted vote is positive (``dialect`` is one of
        :data:`SQL_DIALECTS`)."""
        _check_dialect(dialect)
        if not self.clauses:
            return "(1 = 0)"
        votes = " + ".join(
            f"(CASE WHEN {c.to_sql(table, dialect=dialect)} THEN {w!r} ELSE 0 END)"
            for c, w in zip(self.clauses, self._finite_weights())
        )
        return f"({votes}) > 0"

    def to_query(self) -> str:
        """A ``DataFrame.query(..., engine="python")`` string: the weighted vote is positive."""
        if not self.clauses:
            return _QUERY_FALSE
        votes = " + ".join(
            f"{w!r} * {c.to_query()}" for c, w in zip(self.clauses, self._finite_weights())
        )
        return f"({votes}) > 0"

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def explain(self, X: pd.DataFrame) -> list[str]:
        """For each row, the clauses that vote (with their weights) and the total score."""
        if not self.clauses:
            return ["no clauses: score 0"] * len(X)
        fired = np.column_stack([c.evaluate(X) for c in self.clauses])
        texts = self.clause_texts()
        out = []
        for row in fired:
            parts = [f"{w:+.3f} ({t})" for t, w, f in zip(texts, self.weights, row) if f]
            score = sum(w for w, f in zip(self.weights, row) if f)
            out.append(
                f"score {score:+.3f} = " + (" ".join(parts) if parts else "0 (no clause fired)")
            )
        return out


def weighted_from_dict(d: dict | str) -> WeightedRuleSet:
    """Rebuild a :class:`WeightedRuleSet` from ``to_dict()``/``to_json()``."""
    if isinstance(d, str):
        d = json.loads(d)
    if d.get("type") != "weighted":
        raise ValueError(f"not a weighted rule set: type {d.get('type')!r}")
    return WeightedRuleSet(
        [_clause(c) for c in d["clauses"]],
        d["weights"],
        then=d.get("then", "1"),
        loss=d.get("loss", "exponential"),
    )
