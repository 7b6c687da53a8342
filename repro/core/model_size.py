"""The size of a fitted model in rules and terms, read from what it learned."""

from __future__ import annotations

__all__ = ["complexity"]


def complexity(model) -> tuple[float, float]:
    """(number of rules/clauses, number of terms) of a fitted model, NaN where it has none.

    Every rulelab learner is read from its ``rules_`` (``n_rules``/``n_terms`` of its
    :mod:`rulelab.rules` type); the peers' adapters and the model-selection wrappers from their
    ``complexity_()``; scikit-learn trees as leaves and the conditions on the root-to-leaf
    paths; wittgenstein's RIPPER from its rule set.
    """
    est = model.steps[-1][1] if hasattr(model, "steps") else model
    rules = getattr(est, "rules_", None)
    if rules is not None and hasattr(rules, "n_rules"):
        return float(rules.n_rules), float(rules.n_terms)
    if hasattr(est, "complexity_"):
        return est.complexity_()
    tree = getattr(est, "tree_", None)
    if tree is not None:
        leaves = int((tree.children_left == -1).sum())
        return float(leaves), float(_tree_path_terms(tree))
    ruleset = getattr(est, "ruleset_", None)
    if ruleset is not None and hasattr(ruleset, "rules"):
        return float(len(ruleset.rules)), float(sum(len(r.conds) for r in ruleset.rules))
    return float("nan"), float("nan")


def _tree_path_terms(tree) -> int:
    """Total number of conditions over all root-to-leaf paths (each leaf read as a rule)."""
    total, stack = 0, [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if tree.children_left[node] == -1:
            total += depth
        else:
            stack.append((tree.children_left[node], depth + 1))
            stack.append((tree.children_right[node], depth + 1))
    return total
