"""The weighted itemset search: one compiled depth-first traversal, parameterised by what it
collects.

Every learner that searches conjunctions of binary items uses this package rather than its
own copy of the search:

- GRAB's weighted frequent itemset mining (:mod:`rulelab.grab.wfim`: every itemset above a
  threshold, counting, expansion with occurrence lists, the top K by ``|wfrq|``, the
  exhaustive naive search) calls :func:`traverse` with the ``THRESHOLD`` or ``TOP_K``
  collector;
- column generation's pricing (:mod:`rulelab.colgen.pricing`) collects the itemsets of
  lowest reduced cost with :func:`lowest_cost_search`, the same depth-first order (children
  take items after their parent's last one) with the cost bound in place of the weighted
  frequency bound, over bitsets of weighted rows (:func:`weighted_layout`,
  :func:`pack_rows`, :func:`pack_bit_rows`), since its rows carry dual weights of few distinct values.

Both searches prune a subtree with an anti-monotone bound of its root (the positive mass a
superset can still cover), and both bound a child ``S + j + k`` by inclusion-exclusion from
its two parents before measuring it.

Primitives
----------
:func:`popcount`, :func:`ctz`   bits of a ``uint64`` word
:func:`grow`                    doubling growth of an output buffer, any dtype
:func:`pack_bitsets`            CSC 0/1 columns as bitsets
:func:`reduce_db`, :func:`group_rows`  transaction databases prepared and merged
"""

from ._bits import ctz, grow, pack_bitsets, popcount
from ._cost import (
    lowest_cost_search,
    measure_items,
    measure_root,
    pack_bit_rows,
    pack_rows,
    weighted_layout,
)
from ._database import group_rows, reduce_db, same_run
from ._traverse import CAPPED, COMPLETE, REACHED, THRESHOLD, TOP_K, traverse

__all__ = [
    "traverse",
    "THRESHOLD",
    "TOP_K",
    "COMPLETE",
    "CAPPED",
    "REACHED",
    "lowest_cost_search",
    "measure_items",
    "measure_root",
    "pack_bit_rows",
    "pack_rows",
    "weighted_layout",
    "reduce_db",
    "group_rows",
    "same_run",
    "popcount",
    "ctz",
    "grow",
    "pack_bitsets",
]
