"""The weighted itemset search: one compiled depth-first traversal, parameterised by what it
collects and by how a node's cover is held.

Every learner that searches conjunctions of binary items uses this package rather than its
own copy of the search:

- GRAB's weighted frequent itemset mining (:mod:`rulelab.grab.wfim`: every itemset above a
  threshold, counting, expansion with occurrence lists, the top K by ``|wfrq|``, the
  exhaustive naive search) calls :func:`traverse`, the traversal with the ``THRESHOLD`` or
  ``TOP_K`` collector over conditional databases of transactions;
- column generation's pricing (:mod:`rulelab.colgen.pricing`) calls
  :func:`lowest_cost_search`, the same traversal with the ``LOWEST_COST`` collector (the
  itemsets of lowest reduced cost) over bitsets of weighted rows (:func:`weighted_layout`,
  :func:`pack_rows`, :func:`pack_bit_rows`), since its rows carry dual weights of few
  distinct values and its binarised columns are dense.

One kernel enumerates the children of a node (the items after its last one), bounds a
child from its two parents by inclusion-exclusion before measuring it, prunes a subtree by
an anti-monotone bound of its root (the positive mass a superset can still cover) and
hands each measured itemset to the collector; a kernel is compiled per collector and cover.

Primitives
----------
:func:`popcount`, :func:`ctz`   bits of a ``uint64`` word
:func:`grow`                    doubling growth of an output buffer, any dtype
:func:`pack_bitsets`            CSC 0/1 columns as bitsets
:func:`reduce_db`, :func:`group_rows`  transaction databases prepared and merged
"""

from ._bits import ctz, grow, pack_bitsets, popcount
from ._cost import (
    measure_items,
    measure_root,
    pack_bit_rows,
    pack_rows,
    weighted_layout,
)
from ._database import group_rows, reduce_db, same_run
from ._traverse import (
    CAPPED,
    COMPLETE,
    LOWEST_COST,
    REACHED,
    THRESHOLD,
    TOP_K,
    lowest_cost_search,
    traverse,
)

__all__ = [
    "traverse",
    "THRESHOLD",
    "TOP_K",
    "LOWEST_COST",
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
