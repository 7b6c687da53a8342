"""Compiled coordinate descent for the free weights of GRAB (L1 + logistic or L2-hinge).

Minimises ``G(w) = C * sum_i loss(f_i, y_i) + ||w||_1`` over the free features only, where
``f = Z w`` and every column of Z is 0/1 (a conjunction), stored as a list of row indices.
Each coordinate takes the Newton step of the one-dimensional quadratic model with the L1
term kept exact (soft thresholding), followed by an Armijo line search on the true
objective (the CDN method of Yuan, Chang, Hsieh & Lin 2010, JMLR 11, which LIBLINEAR uses
for its L1-regularised solvers). Labels are -1/+1.

loss 0 = logistic ``log(1 + exp(-y f))``; loss 1 = L2-hinge ``max(0, 1 - y f)**2``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LOGISTIC = 0
L2HINGE = 1


@njit(cache=True, nogil=True, inline="always")
def _loss(z, loss):
    # z = y * f
    if loss == LOGISTIC:
        if z > 0:
            return np.log1p(np.exp(-z))
        return -z + np.log1p(np.exp(z))
    b = 1.0 - z
    return b * b if b > 0 else 0.0


@njit(cache=True, nogil=True, inline="always")
def _loss_change(yi, fi, step, loss):
    """loss(y (f + step)) - loss(y f), computed without cancellation for small steps."""
    z = yi * fi
    dz = yi * step
    if loss == LOGISTIC:
        # log(1 + e^{-z-dz}) - log(1 + e^{-z}) = log1p(sigmoid(-z) * expm1(-dz))
        if z > 0:
            e = np.exp(-z)
            s = e / (1.0 + e)
        else:
            s = 1.0 / (1.0 + np.exp(z))
        return np.log1p(s * np.expm1(-dz))
    b = 1.0 - z
    nb = b - dz
    if b > 0 and nb > 0:
        return dz * (dz - 2.0 * b)
    return (nb * nb if nb > 0 else 0.0) - (b * b if b > 0 else 0.0)


@njit(cache=True, nogil=True, inline="always")
def _log1p_bound(x, s1, s2, s3):
    """An upper bound of ``sum_i c_i log1p(s_i x)`` from ``s1, s2, s3 = sum c_i s_i,
    c_i s_i^2, c_i s_i^3`` (c_i >= 0, 0 < s_i < 1, x > -1): log1p(u) <= u - u^2/2 + u^3/3
    for u >= 0 and <= u - u^2/2 for -1 < u < 0 (the derivatives of the differences are
    u^3/(1+u) and -u^2/(1+u))."""
    b = x * s1 - 0.5 * x * x * s2
    if x > 0.0:
        b += x * x * x * s3 / 3.0
    return b


@njit(cache=True, nogil=True, inline="always")
def _sigmoid_moments(rows, lo, hi, e, weight):
    """sum c_i s_i, c_i s_i^2, c_i s_i^3 over ``rows[lo:hi]``, s_i = 1 / (1 + e_i)."""
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    for q in range(lo, hi):
        r = rows[q]
        si = 1.0 / (1.0 + e[r])
        cs = weight[r] * si
        s1 += cs
        s2 += cs * si
        s3 += cs * si * si
    return s1, s2, s3


@njit(cache=True, nogil=True)
def sample_grad(f, y, C, loss):
    """C * d loss / d f_i for every sample (the transaction weights alpha of Theorem 1)."""
    n = f.shape[0]
    out = np.empty(n)
    for i in range(n):
        z = y[i] * f[i]
        if loss == LOGISTIC:
            if z > 0:
                e = np.exp(-z)
                s = e / (1.0 + e)
            else:
                s = 1.0 / (1.0 + np.exp(z))
            out[i] = -C * y[i] * s
        else:
            b = 1.0 - z
            out[i] = -2.0 * C * y[i] * b if b > 0 else 0.0
    return out


@njit(cache=True, nogil=True)
def objective(f, y, w, C, loss, weight):
    """G(w) of eq. (2); row i counts ``weight[i]`` times."""
    s = 0.0
    for i in range(f.shape[0]):
        s += weight[i] * _loss(y[i] * f[i], loss)
    return C * s + np.abs(w).sum()


@njit(cache=True, nogil=True)
def free_gradients(ptr, rows, alpha):
    """Per free feature: its gradient ``sum of alpha_i over its rows`` (alpha from
    :func:`sample_grad`: one transcendental per row, then only sums)."""
    n = ptr.shape[0] - 1
    g = np.empty(n)
    for j in range(n):
        s = 0.0
        for q in range(ptr[j], ptr[j + 1]):
            s += alpha[rows[q]]
        g[j] = s
    return g


def min_norm_subgradient(g, w):
    """Per feature: the norm of the minimum-norm subgradient of G (v_phi of eq. 17)."""
    return np.where(
        w > 0, np.abs(g + 1.0), np.where(w < 0, np.abs(g - 1.0), np.maximum(np.abs(g) - 1.0, 0.0))
    )


@njit(cache=True, nogil=True)
def _first_negative(ptr, rows, n_pos):
    """Per column: the position of its first row >= n_pos (rows are sorted ascending)."""
    n = ptr.shape[0] - 1
    split = np.empty(n, dtype=np.int64)
    for j in range(n):
        lo = ptr[j]
        hi = ptr[j + 1]
        while lo < hi:
            mid = (lo + hi) >> 1
            if rows[mid] < n_pos:
                lo = mid + 1
            else:
                hi = mid
        split[j] = lo
    return split


@njit(cache=True, nogil=True)
def cd_solve(ptr, rows, w, f, weight, n_pos, C, loss, tol, max_epochs, seed, active, confirm=True):
    """Coordinate descent from the given w (warm start); f = Z w is updated in place.

    Row i stands for ``weight[i]`` identical training rows (its loss counts that often).

    The rows are ordered by label: rows ``0 .. n_pos - 1`` have y = +1, the rest y = -1
    (:func:`rulelab.grab.grafting.graft` sorts them so), and each column's row list is
    sorted, so it splits into a positive and a negative run: the loops then need neither
    the labels nor a branch on them.

    Epochs visit the features marked in ``active`` (updated in place) and stop when the
    sum of their minimum-norm subgradients, measured during an epoch, is below ``tol`` (or
    after ``max_epochs``). A feature that sits at zero with a gradient well inside [-1, 1]
    leaves the active set (shrinking, as in LIBLINEAR). With ``confirm`` the solve ends
    with passes over every feature until the sum over all of them is below ``tol``; GRAB
    passes ``confirm=False`` because it measures every free feature's violation itself
    right after (:func:`free_gradients`) and starts the next solve from those. An epoch in
    which no step passes the line search ends the solve (round-off floor). Returns
    (epochs, last sum).

    For the logistic loss e_i = exp(y_i f_i) is cached, as LIBLINEAR does: a column is
    0/1, so a step multiplies e_i by one of two constants and no exponential is evaluated
    per row (f itself is recovered from e at the end); the line search first tries a
    cubic upper bound of the loss change from the sums of s, s^2 and s^3 gathered with the
    gradient (:func:`_log1p_bound`), which needs no logarithm: on a1a at k = 5 it settles
    all but a handful of the Armijo tests that the bound log1p(x) <= x left to a
    logarithm per row (a sixth of them), and it accepts exactly the steps the exact test
    would.
    """
    n = w.shape[0]
    m = f.shape[0]
    np.random.seed(seed)
    order = np.arange(n)
    split = _first_negative(ptr, rows, n_pos)
    e = np.empty(m)
    log_e0 = np.empty(m)
    if loss == LOGISTIC:
        for i in range(m):
            yf = f[i] if i < n_pos else -f[i]
            log_e0[i] = min(max(yf, -700.0), 700.0)
            e[i] = np.exp(log_e0[i])
    sigma = 0.01
    epoch = 0
    vsum = np.inf
    full_check = False
    while epoch < max_epochs:
        epoch += 1
        np.random.shuffle(order)
        vsum = 0.0
        moved = False
        skipped = False
        for oi in range(n):
            j = order[oi]
            if not active[j] and not full_check:
                skipped = True
                continue
            p0 = ptr[j]
            p1 = split[j]
            p2 = ptr[j + 1]
            g = 0.0
            h = 0.0
            # logistic: the sums of s, s^2 and s^3, s = sigmoid(-y f), over the column's
            # rows with y = +1 and with y = -1 (they bound the line search below)
            s_pos = 0.0
            s_neg = 0.0
            s2_pos = 0.0
            s2_neg = 0.0
            s3_pos = 0.0
            s3_neg = 0.0
            if loss == LOGISTIC:
                s_pos, s2_pos, s3_pos = _sigmoid_moments(rows, p0, p1, e, weight)
                s_neg, s2_neg, s3_neg = _sigmoid_moments(rows, p1, p2, e, weight)
                g = -C * (s_pos - s_neg)
                h = C * ((s_pos - s2_pos) + (s_neg - s2_neg))
            else:
                for q in range(p0, p1):
                    r = rows[q]
                    b = 1.0 - f[r]
                    if b > 0:
                        g -= 2.0 * weight[r] * b
                        h += 2.0 * weight[r]
                for q in range(p1, p2):
                    r = rows[q]
                    b = 1.0 + f[r]
                    if b > 0:
                        g += 2.0 * weight[r] * b
                        h += 2.0 * weight[r]
                g *= C
                h *= C
            wj = w[j]
            if wj > 0:
                vj = abs(g + 1.0)
            elif wj < 0:
                vj = abs(g - 1.0)
            else:
                vj = max(abs(g) - 1.0, 0.0)
                if abs(g) < 1.0 - 1e-3 and (epoch > 1 or not confirm):
                    active[j] = False
                    skipped = True
                    continue
            active[j] = True
            vsum += vj
            if vj == 0.0:
                continue
            h = max(h, 1e-12)
            if g + 1.0 <= h * wj:
                d = -(g + 1.0) / h
            elif g - 1.0 >= h * wj:
                d = -(g - 1.0) / h
            else:
                d = -wj
            if d == 0.0:
                continue
            delta = g * d + abs(wj + d) - abs(wj)
            lam = 1.0
            accepted = False
            for _ in range(60):
                step = lam * d
                change = abs(wj + step) - abs(wj)
                acc = 0.0
                if loss == LOGISTIC:
                    ep = np.expm1(-step)  # rows with y = +1
                    en = np.expm1(step)  # rows with y = -1
                    # the loss change is sum_i c_i log1p(s_i x) with x = ep or en; an upper
                    # bound from s's moments certifies the Armijo test without a logarithm
                    bound = _log1p_bound(ep, s_pos, s2_pos, s3_pos) + _log1p_bound(
                        en, s_neg, s2_neg, s3_neg
                    )
                    if change + C * bound <= sigma * lam * delta:
                        accepted = True
                        break
                    for q in range(p0, p1):
                        r = rows[q]
                        acc += weight[r] * np.log1p(ep / (1.0 + e[r]))
                    for q in range(p1, p2):
                        r = rows[q]
                        acc += weight[r] * np.log1p(en / (1.0 + e[r]))
                else:
                    for q in range(p0, p1):
                        r = rows[q]
                        acc += weight[r] * _loss_change(1.0, f[r], step, loss)
                    for q in range(p1, p2):
                        r = rows[q]
                        acc += weight[r] * _loss_change(-1.0, f[r], step, loss)
                change += C * acc
                if change <= sigma * lam * delta:
                    accepted = True
                    break
                lam *= 0.5
            if not accepted:
                continue
            moved = True
            step = lam * d
            w[j] = wj + step
            if loss == LOGISTIC:
                # only e moves; f is recovered from it once, at the end
                fp = np.exp(step)
                fn = np.exp(-step)
                for q in range(p0, p1):
                    e[rows[q]] *= fp
                for q in range(p1, p2):
                    e[rows[q]] *= fn
            else:
                for q in range(p0, p2):
                    f[rows[q]] += step
        if vsum <= tol:
            if full_check or not skipped or not confirm:
                # every feature was measured in this epoch, or the caller measures them
                break
            # converged on the shrunk set: one full pass over every feature to confirm
            full_check = True
        elif not moved:
            # no step passed the line search: the tolerance is below what round-off allows
            break
        else:
            full_check = False
    if loss == LOGISTIC:
        for i in range(m):
            moved_by = np.log(e[i]) - log_e0[i]  # y_i times the change of f_i
            f[i] += moved_by if i < n_pos else -moved_by
    return epoch, vsum
