"""A weighted vote of rule lists (:class:`WeightedVote`), each voting on every row."""

from __future__ import annotations

import numpy as np

from ._values import _nonfinite, _py
from .clauses import _ClauseCollection
from .lists import DecisionList
from .weighted import _VoteLink

__all__ = ["WeightedVote"]


class WeightedVote(_VoteLink, _ClauseCollection):
    """A weighted vote of rule lists, each voting +1 or -1 on every row: predict ``then``
    where ``F(x) = sum_t w_t h_t(x) > 0``.

    Discrete AdaBoost (Freund & Schapire 1997) over learners that are rules themselves
    (:class:`~rulelab.rulesfirst.BoostRule`: each round a rules-first list, Cohen et al.
    2019, Theorem 3): ``h_t(x) = +1`` where member ``t`` gives ``positive``, ``-1``
    elsewhere. Unlike a :class:`WeightedRuleSet`, whose clauses vote only where they hold,
    every member votes on every row. Its rules (``clauses``, ``n_rules``, ``n_terms``) are
    the distinct rules of the members, in order of first use.

    Parameters
    ----------
    members : sequence of DecisionList
        One list per round, each deciding every row (a default or a fallback model).
    weights : sequence of float
        The weight ``w_t`` of each round.
    positive : label, default=1
        The label a member votes +1 for.
    then : str, optional
        What the vote predicts when it is positive, in words (default ``positive``).
    loss : {"exponential", "logistic", "hinge"}, default="exponential"
        The loss the weights minimise, which fixes the link to a probability, as in
        :class:`WeightedRuleSet` (AdaBoost's exponential loss: ``1 / (1 + exp(-2F))``).
    """

    def __init__(self, members=(), weights=(), *, positive=1, then=None, loss="exponential"):
        members, weights = tuple(members), tuple(float(w) for w in weights)
        if len(members) != len(weights):
            raise ValueError(
                f"{len(members)} members but {len(weights)} weights: one weight per member"
            )
        for m in members:
            if not isinstance(m, DecisionList):
                raise ValueError(f"a WeightedVote holds decision lists, not {type(m).__name__}")
        self.members = members
        self.weights = weights
        self.positive = positive
        self.then = str(positive) if then is None else then
        self.loss = self._check_loss(loss)

    @property
    def has_fallback_model(self) -> bool:
        """Whether a member leaves rows to a fitted model (then there is no SQL or query
        form, and JSON keeps the rules with the model named)."""
        return any(m.has_fallback_model for m in self.members)

    @property
    def clauses(self) -> tuple:
        """The members' distinct rules, in order of first use."""
        return tuple(dict.fromkeys(c for m in self.members for c in m.clauses))

    @property
    def feature_indices(self) -> list[int]:
        """The columns the members' rules test (rules-first lists), in order of first use."""
        return list(
            dict.fromkeys(j for m in self.members for j in getattr(m, "feature_indices", ()))
        )

    def votes(self, X) -> np.ndarray:
        """Each member's vote, +1 or -1, shape ``(n_rows, n_members)``."""
        if not self.members:
            return np.zeros((X.shape[0], 0))
        return np.column_stack(
            [np.where(m.decide(X) == self.positive, 1.0, -1.0) for m in self.members]
        )

    def score(self, X) -> np.ndarray:
        """The weighted vote ``sum_t w_t h_t(x)`` on every row of ``X``."""
        out = np.zeros(X.shape[0])
        for member, weight in zip(self.members, self.weights):
            out += weight * np.where(member.decide(X) == self.positive, 1.0, -1.0)
        return out

    def simplified(self) -> WeightedVote:
        """The vote itself: its members' rules are read as learned."""
        return self

    def __eq__(self, other) -> bool:
        return (
            type(self) is type(other)
            and self.members == other.members
            and np.allclose(self.weights, other.weights)
            and self.positive == other.positive
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.members))

    def __str__(self) -> str:
        lines = [
            f"IF score > 0 THEN {self.then}, where score adds each round's vote: its "
            f"weight where its list gives {self.positive}, minus its weight elsewhere"
        ]
        for t, (member, weight) in enumerate(zip(self.members, self.weights)):
            lines.append(f"round {t + 1}, weight {weight:+.3f}:")
            lines.extend("  " + line for line in str(member).splitlines())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"WeightedVote({len(self.members)} members, {self.n_rules} rules)"

    def to_dict(self) -> dict:
        """The members' rules and the weights; a member's fallback model is named by its
        ``otherwise`` only (a vote read back gives its rules, not its scores)."""
        return {
            "type": "vote",
            "then": self.then,
            "positive": _py(self.positive),
            "loss": self.loss,
            "weights": [_nonfinite(w) or w for w in self.weights],
            "members": [m.to_dict() for m in self.members],
        }

    def _no_text_form(self, what: str):
        raise ValueError(
            f"a vote of rule lists has no {what}: each round's list leaves the rows no rule "
            f"covers to a fitted model ({self.members[0].otherwise if self.members else ''}); "
            f"export a round's rules with members[t].to_sql() or members[t].to_query()"
        )

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """Refused with a clear error: the members' fallback models have no SQL form."""
        self._no_text_form("SQL form")

    def to_query(self) -> str:
        """Refused with a clear error: the members' fallback models have no query form."""
        self._no_text_form("pandas query form")

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def explain(self, X) -> list[str]:
        """For each row, each round's vote with the rule (or the fallback) behind it."""
        score = self.score(X)
        votes = self.votes(X)
        reasons = [m.explain(X) for m in self.members]
        return [
            f"score {score[i]:+.3f} = "
            + " ".join(
                f"{v * w:+.3f} (round {t + 1}: {reasons[t][i]})"
                for t, (v, w) in enumerate(zip(votes[i], self.weights))
            )
            for i in range(len(score))
        ]
