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
"""

from __future__ import annotations

import numpy as np

__all__ = ["RuleSetMaster"]


def _highs():
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


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
        self.lp = _highs()
        inf = highspy.kHighsInf
        # One >= 1 row per positive, each with its own slack column xi_i.
        self.lp.addRows(self.n_pos, np.ones(self.n_pos), np.full(self.n_pos, inf), 0,
                        np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
        idx = np.arange(self.n_pos, dtype=np.int32)
        self.lp.addCols(self.n_pos, self.pos_weight, np.zeros(self.n_pos),
                        np.full(self.n_pos, inf), self.n_pos, idx, idx, np.ones(self.n_pos))
        self.covers: list[np.ndarray] = []     # positive rows each column covers
        self.costs: list[float] = []           # complexity + negatives' cost of each column
        self.value = float(self.pos_weight.sum())
        self.lp_solves = 0

    @property
    def n_columns(self) -> int:
        return len(self.covers)

    def add_columns(self, covers: list[np.ndarray], costs: np.ndarray) -> None:
        """Append conjunctions: the positive rows each covers and its full cost."""
        if not covers:
            return
        starts = np.zeros(len(covers), dtype=np.int32)
        starts[1:] = np.cumsum([c.size for c in covers[:-1]])
        idx = np.concatenate(covers).astype(np.int32) if covers else np.zeros(0, np.int32)
        self.lp.addCols(len(covers), np.asarray(costs, float), np.zeros(len(covers)),
                        np.full(len(covers), self._hs.kHighsInf), idx.size, starts, idx,
                        np.ones(idx.size))
        self.covers.extend(covers)
        self.costs.extend(np.asarray(costs, float).tolist())

    def set_costs(self, costs: np.ndarray) -> None:
        """Replace every column's cost (a new complexity cost on the same pool)."""
        costs = np.asarray(costs, float)
        if costs.size:
            idx = np.arange(self.n_pos, self.n_pos + costs.size, dtype=np.int32)
            self.lp.changeColsCost(costs.size, idx, costs)
        self.costs = costs.tolist()

    def solve(self) -> tuple[float, np.ndarray, np.ndarray]:
        """Solve the LP from the last basis; return (value, column values, duals mu)."""
        self.lp.run()
        self.lp_solves += 1
        status = self.lp.modelStatusToString(self.lp.getModelStatus()).lower()
        if status != "optimal":
            raise RuntimeError(f"the master LP ended with status {status!r}")
        sol = self.lp.getSolution()
        x = np.asarray(sol.col_value, float)[self.n_pos:]
        mu = np.clip(np.asarray(sol.row_dual, float), 0.0, self.pos_weight)
        self.value = float(self.lp.getInfo().objective_function_value)
        return self.value, x, mu

    def solve_integer(self, time_limit: float | None = None, start: np.ndarray | None = None,
                      mip_gap: float = 1e-6) -> tuple[np.ndarray, float, str]:
        """The integer program over the pool (a fresh HiGHS model; the LP stays as it is).

        Returns the 0/1 selection, its objective and HiGHS's status (``"optimal"`` or
        ``"time_limit"``, the best solution found so far).
        """
        hs = self._hs
        h = _highs()
        h.setOptionValue("mip_rel_gap", float(mip_gap))
        if time_limit is not None:
            h.setOptionValue("time_limit", max(float(time_limit), 0.1))
        n_col = self.n_columns
        # Covering rows again, with the slack written as the row's lower bound form:
        # xi_i = 1 - coverage is priced through the slack column as in the LP.
        inf = hs.kHighsInf
        h.addRows(self.n_pos, np.ones(self.n_pos), np.full(self.n_pos, inf), 0,
                  np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
        idx = np.arange(self.n_pos, dtype=np.int32)
        h.addCols(self.n_pos, self.pos_weight, np.zeros(self.n_pos), np.ones(self.n_pos),
                  self.n_pos, idx, idx, np.ones(self.n_pos))
        if n_col:
            starts = np.zeros(n_col, dtype=np.int32)
            starts[1:] = np.cumsum([c.size for c in self.covers[:-1]])
            rows = np.concatenate(self.covers).astype(np.int32)
            h.addCols(n_col, np.asarray(self.costs, float), np.zeros(n_col), np.ones(n_col),
                      rows.size, starts, rows, np.ones(rows.size))
            cols = np.arange(self.n_pos, self.n_pos + n_col, dtype=np.int32)
            h.changeColsIntegrality(n_col, cols,
                                    np.full(n_col, hs.HighsVarType.kInteger, dtype=np.uint8))
            if start is not None:
                h.setSolution(self._full_solution(np.asarray(start, float)))
        h.run()
        status = h.modelStatusToString(h.getModelStatus()).lower()
        sol = np.asarray(h.getSolution().col_value, float)[self.n_pos:]
        if sol.size != n_col:  # no solution at all (cannot happen: all-slack is feasible)
            sol = np.zeros(n_col)
        chosen = sol > 0.5
        return chosen, self.objective(chosen), "optimal" if status == "optimal" else "time_limit"

    def _full_solution(self, x: np.ndarray):
        """A feasible start for the MILP: the clause selection ``x`` and its slacks."""
        hs = self._hs
        covered = np.zeros(self.n_pos)
        for k in np.flatnonzero(x > 0.5):
            covered[self.covers[k]] = 1.0
        values = np.concatenate([1.0 - covered, (x > 0.5).astype(float)])
        s = hs.HighsSolution()
        s.col_value = values.tolist()
        s.value_valid = True
        return s

    def objective(self, chosen: np.ndarray) -> float:
        """The integer objective of a 0/1 selection of the pool's columns."""
        chosen = np.asarray(chosen, bool)
        covered = np.zeros(self.n_pos, dtype=bool)
        for k in np.flatnonzero(chosen):
            covered[self.covers[k]] = True
        return float(self.pos_weight[~covered].sum() + np.asarray(self.costs)[chosen].sum())
