"""Any rule read back from its ``to_dict()`` / ``to_json()``."""

from __future__ import annotations

import json

from .clauses import _clause
from .lists import DecisionList
from .normal_forms import CNF, DNF
from .votes import WeightedVote
from .weighted import weighted_from_dict

__all__ = ["rule_from_dict"]


def rule_from_dict(d: dict | str):
    """Rebuild a :class:`Clause`, :class:`DNF`, :class:`CNF`, :class:`WeightedRuleSet`,
    :class:`DecisionList` or :class:`WeightedVote` from ``to_dict()``/``to_json()`` (a
    fallback model, which JSON does not hold, is named by ``otherwise`` only)."""
    if isinstance(d, str):
        d = json.loads(d)
    kind = d.get("type")
    if kind == "clause":
        return _clause(d)
    if kind in ("dnf", "cnf"):
        cls = DNF if kind == "dnf" else CNF
        return cls([_clause(c) for c in d["clauses"]], then=d.get("then", "1"))
    if kind == "weighted":
        return weighted_from_dict(d)
    if kind == "vote":
        return WeightedVote(
            [rule_from_dict(m) for m in d["members"]],
            [float(w) for w in d["weights"]],
            positive=d.get("positive", 1),
            then=d.get("then"),
            loss=d.get("loss", "exponential"),
        )
    if kind == "decision_list":
        return DecisionList(
            [_clause(c) for c in d["clauses"]],
            d["labels"],
            otherwise=d.get("otherwise", "the base model"),
            default=d.get("default"),
        )
    raise ValueError(f"not a rulelab rule: type {kind!r}")
