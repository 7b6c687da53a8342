"""The master problem of column generation: the rule-set integer program over a pool of
conjunctions, its LP relaxation kept live in HiGHS between rounds.

For positives ``P`` (weights ``w_i``), negatives ``N`` (costs ``v_i``, the weight of a
covered negative) and conjunctions ``k`` with complexity cost ``c_k``::

    min  sum_{i in P} w_i xi_i + sum_k (c_k + sum_{i in N, k covers i} v_i) x_k
    s.t. xi_i + sum_{k covers i} x_k >= 1   for i in P        (dual mu_i)
         x_k in {0, 1},  xi_i >= 0

A negative is charged once for every selected clause that covers it (the objective of
Dash, Günlük & Wei 2018): it keeps the problem a covering problem whose columns price out
independently, and it is an upper bound on the rule set's weighted Hamming loss (equal to
it when no two selected clauses overlap on a negative). The reduced cost of a conjunction
is ``c_k + v(N ∩ k) - mu(P ∩ k)``.

HiGHS solves the LP relaxation in its dual form::

    max  sum_{i in P} mu_i
    s.t. sum_{i in P, k covers i} mu_i <= c_k + v(N ∩ k)   for every conjunction k  (x_k)
         0 <= mu_i <= w_i

one bounded variable per positive and one row per conjunction. The pricing duals are this
LP's solution and the clause values its row duals. A round adds rows, which leaves the last
basis dual feasible, so HiGHS's dual simplex goes on from it; and the basis has one row per
conjunction (a few hundred) instead of one per positive (thousands): MAGIC's and Musk's
LPs solve several times faster this way than in the primal form.
"""

from __future__ import annotations

import numpy as np

from .._highs import quiet_highs

__all__ = ["RuleSetMaster"]


class RuleSetMaster:
    """The LP relaxation over the columns added so far, warm-started between rounds.

    Parameters
    ----------
    pos_weight : ndarray of shape (n_pos,)
        Cost of leaving each positive uncovered.
    """

    def __init__(self, pos_weight: np.ndarray):
        import highspy

        self._hs = highspy
        self.pos_weight = np.asarray(pos_weight, dtype=float)
        self.n_pos = self.pos_weight.size
        self.lp = quiet_highs()
        # Each round starts from the last basis; presolve would discard it.
        self.lp.setOptionValue("presolve", "off")
        self.lp.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self.covers: list[np.ndarray] = []  # positives each column covers
        self.costs: list[float] = []  # complexity + negatives' cost of each column
        self.group = np.zeros(self.n_pos, dtype=np.int64)  # group (LP variable) of each positive
        self.members: list[np.ndarray] = []
        self.group_weight: list[float] = []
        self.group_cols: list[list[int]] = []  # columns (LP rows) covering each group
        self.col_groups: list[list[int]] = []  # groups each column covers
        self._group_size = np.zeros(16, dtype=np.int64)  # members per group (grown by doubling)
        self._new_group(np.arange(self.n_pos), [])
        self.value = float(self.pos_weight.sum())
        self.lp_solves = 0
        self.last_iterations = 0  # simplex iterations of the last solve

    @property
    def n_columns(self) -> int:
        return len(self.covers)

    @property
    def n_rows(self) -> int:
        """Rows of the live LP: one per column (conjunction)."""
        return len(self.covers)

    @property
    def n_groups(self) -> int:
        """Groups of positives the pool cannot tell apart: the live LP's variables."""
        return len(self.members)

    def _new_group(self, members: np.ndarray, cols: list[int]) -> int:
        """Add the variable of ``members``, with coefficient 1 in the rows ``cols``."""
        g = len(self.members)
        weight = float(self.pos_weight[members].sum())
        rows = np.asarray(cols, dtype=np.int32)
        self.lp.addCol(1.0, 0.0, weight, rows.size, rows, np.ones(rows.size))
        self.members.append(members)
        if g == self._group_size.size:
            self._group_size = np.concatenate([self._group_size, np.zeros_like(self._group_size)])
        self._group_size[g] = members.size
        self.group_weight.append(weight)
        self.group_cols.append(list(cols))
        self.group[members] = g
        return g

    def add_columns(self, covers: list[np.ndarray], costs: np.ndarray) -> None:
        """Append conjunctions: the positives each covers (indices) and its full cost."""
        for cover, cost in zip(covers, np.asarray(costs, float)):
            cover = np.asarray(cover, dtype=np.int64)
            # a group the column covers entirely gets a coefficient in its row; a group it
            # covers in part splits: the covered part becomes a new variable with the
            # group's coefficients, and the group's bound shrinks by the part's weight
            hits = np.bincount(self.group[cover], minlength=self.n_groups)
            touched = np.flatnonzero(hits)
            entire = hits[touched] == self._group_size[touched]
            inside = None
            groups = []
            for g, whole in zip(touched.tolist(), entire.tolist()):
                if whole:
                    groups.append(g)
                    continue
                if inside is None:
                    inside = np.zeros(self.n_pos, dtype=bool)
                    inside[cover] = True
                members = self.members[g]
                part = inside[members]
                self.members[g] = members[~part]
                self._group_size[g] = self.members[g].size
                self.group_weight[g] -= float(self.pos_weight[members[part]].sum())
                self.lp.changeColBounds(g, 0.0, self.group_weight[g])
                new = self._new_group(members[part], self.group_cols[g])
                for k in self.group_cols[g]:
                    self.col_groups[k].append(new)
                groups.append(new)
            k = len(self.covers)
            idx = np.array(groups, dtype=np.int32)
            self.lp.addRow(-self._hs.kHighsInf, float(cost), idx.size, idx, np.ones(idx.size))
            for g in groups:
                self.group_cols[g].append(k)
            self.col_groups.append(groups)
            self.covers.append(cover)
            self.costs.append(float(cost))

    def set_costs(self, costs: np.ndarray) -> None:
        """Replace every column's cost (a new complexity cost on the same pool)."""
        costs = np.asarray(costs, float)
        if costs.size:
            rows = np.arange(costs.size, dtype=np.int32)
            self.lp.changeRowsBounds(
                costs.size, rows, np.full(costs.size, -self._hs.kHighsInf), costs
            )
        self.costs = costs.tolist()

    def solve(self) -> tuple[float, np.ndarray, np.ndarray]:
        """Solve the LP from the last basis; return (value, column values, duals mu)."""
        self.lp.run()
        self.lp_solves += 1
        self.last_iterations = int(self.lp.getInfo().simplex_iteration_count)
        status = self.lp.modelStatusToString(self.lp.getModelStatus()).lower()
        if status != "optimal":
            raise RuntimeError(f"the master LP ended with status {status!r}")
        sol = self.lp.getSolution()
        weight = np.asarray(self.group_weight)
        mu_group = np.clip(np.asarray(sol.col_value, float), 0.0, weight)
        # a group's dual mass is shared in proportion to its members' weights: an optimal
        # dual of the LP with one constraint per positive
        share = np.divide(mu_group, weight, out=np.zeros_like(weight), where=weight > 0)
        mu = self.pos_weight * share[self.group]
        # a maximisation's row duals are non-negative on binding <= rows: the clause values
        x = np.clip(np.asarray(sol.row_dual, float), 0.0, None) if self.covers else np.zeros(0)
        self.value = float(mu_group.sum())
        return self.value, x, mu

    def greedy(self, x: np.ndarray) -> np.ndarray:
        """A rule set from the LP solution: columns by descending LP value (then lower
        cost), each kept if the positives it newly covers outweigh its cost; then every
        kept column whose removal lowers the objective is dropped."""
        n = self.n_columns
        chosen = np.zeros(n, dtype=bool)
        if n == 0:
            return chosen
        costs = np.asarray(self.costs)
        order = np.lexsort((costs, -np.asarray(x)))
        count = np.zeros(self.n_pos, dtype=np.int64)
        for k in order:
            if x[k] <= 1e-9:
                break
            rows = self.covers[k]
            if self.pos_weight[rows[count[rows] == 0]].sum() > costs[k]:
                chosen[k] = True
                count[rows] += 1
        for k in np.flatnonzero(chosen)[::-1]:
            rows = self.covers[k]
            if self.pos_weight[rows[count[rows] == 1]].sum() < costs[k]:
                chosen[k] = False
                count[rows] -= 1
        return chosen

    def solve_integer(
        self,
        time_limit: float | None = None,
        start: np.ndarray | None = None,
        mip_gap: float = 1e-6,
        node_limit: int | None = None,
        solution_limit: int | None = None,
    ) -> tuple[np.ndarray, float, str]:
        """The integer program over the pool, one row per group of positives (a fresh
        HiGHS model; the LP stays as it is).

        ``node_limit`` caps HiGHS's branch-and-bound nodes (``mip_max_nodes``) and
        ``solution_limit`` the improving solutions it may find (``mip_max_improving_sols``;
        the start does not count): counts, so where they bind the rule set is the same on
        every machine and under any load. ``time_limit`` (seconds) is a clock limit and
        makes the result depend on the machine where it binds.

        Returns the 0/1 selection, its objective and how the solve ended: ``"optimal"``
        (the gap closed), ``"node_limit"``, ``"solution_limit"`` or ``"time_limit"`` (then
        the best solution found so far).
        """
        hs = self._hs
        h = quiet_highs()
        h.setOptionValue("mip_rel_gap", float(mip_gap))
        # HiGHS's branch and bound is deterministic for a given seed; the seed is set
        # explicitly so that a changed default cannot change the rule sets. (Its thread
        # count is a process-wide setting: changing it on one model makes the solve fail.)
        h.setOptionValue("random_seed", 0)
        if time_limit is not None:
            h.setOptionValue("time_limit", max(float(time_limit), 0.1))
        if node_limit is not None:
            h.setOptionValue("mip_max_nodes", int(node_limit))
        if solution_limit is not None:
            h.setOptionValue("mip_max_improving_sols", int(solution_limit))
        group_weight, col_groups = np.asarray(self.group_weight), self.col_groups
        n_col, n_grp = self.n_columns, group_weight.size
        inf = hs.kHighsInf
        h.addRows(
            n_grp,
            np.ones(n_grp),
            np.full(n_grp, inf),
            0,
            np.zeros(0, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0),
        )
        idx = np.arange(n_grp, dtype=np.int32)
        h.addCols(
            n_grp, group_weight, np.zeros(n_grp), np.ones(n_grp), n_grp, idx, idx, np.ones(n_grp)
        )
        if n_col:
            sizes = np.array([len(g) for g in col_groups])
            starts = np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.int32)
            rows = np.concatenate([np.asarray(g, dtype=np.int32) for g in col_groups])
            h.addCols(
                n_col,
                np.asarray(self.costs, float),
                np.zeros(n_col),
                np.ones(n_col),
                rows.size,
                starts,
                rows,
                np.ones(rows.size),
            )
            cols = np.arange(n_grp, n_grp + n_col, dtype=np.int32)
            h.changeColsIntegrality(
                n_col, cols, np.full(n_col, hs.HighsVarType.kInteger, dtype=np.uint8)
            )
            if start is not None:
                h.setSolution(self._full_solution(np.asarray(start, bool), n_grp, col_groups))
        h.run()
        status = h.modelStatusToString(h.getModelStatus()).lower()
        sol = np.asarray(h.getSolution().col_value, float)[n_grp:]
        if sol.size != n_col:
            sol = np.zeros(n_col)
        chosen = sol > 0.5
        if start is not None and self.objective(start) < self.objective(chosen):
            chosen = np.asarray(start, bool)  # HiGHS stopped before reaching its start
        info = h.getInfo()
        if status == "optimal" or (
            status == "solution limit reached" and 0 <= info.mip_gap <= mip_gap
        ):
            ended = "optimal"  # a solution limit can stop HiGHS on an optimal solution
        elif (
            status == "solution limit reached"
            and node_limit is not None
            and int(info.mip_node_count) >= int(node_limit)
        ):
            ended = "node_limit"
        elif status == "solution limit reached" and solution_limit is not None:
            ended = "solution_limit"
        else:
            ended = "time_limit" if time_limit is not None else status
        return chosen, self.objective(chosen), ended

    def _full_solution(self, chosen: np.ndarray, n_grp: int, col_groups):
        """A feasible start for the MILP: the clause selection and its slacks."""
        covered = np.zeros(n_grp)
        for k in np.flatnonzero(chosen):
            covered[col_groups[k]] = 1.0
        s = self._hs.HighsSolution()
        s.col_value = np.concatenate([1.0 - covered, chosen.astype(float)]).tolist()
        s.value_valid = True
        return s

    def objective(self, chosen: np.ndarray) -> float:
        """The integer objective of a 0/1 selection of the pool's columns."""
        chosen = np.asarray(chosen, bool)
        covered = np.zeros(self.n_pos, dtype=bool)
        for k in np.flatnonzero(chosen):
            covered[self.covers[k]] = True
        return float(self.pos_weight[~covered].sum() + np.asarray(self.costs)[chosen].sum())
