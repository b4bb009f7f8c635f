"""Compiled kernels (numba): the backward sweep over a turn, and the two-player solve built on it.

Inside a turn the turn total only grows, so one sweep from the largest turn total down to 0 gives the
value of every (turn total, dice in hand). Each value carries its slope with respect to ``x``, the value
the opponent would have if this turn ended with nothing banked: Newton's method on that one number
solves the only cycle of the game, a farkle from (a, b) to (b, a) and back (Busche & Neller 2017).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["final_turn_table", "solve_two_players", "turn_sweep"]

LAST_ROUND, FIRST, EXACT = 0, 1, 2


@njit(cache=True, nogil=True)
def turn_sweep(tmax, n_all, bank_v, bank_s, can_bank, cap_v, cap_s, end_v, end_s, win_v, exact,
               gs, gp, gw, os_, op, on, ob, rv, rs):  # pragma: no cover - compiled
    """Fill rv[t, n] (value of rolling n dice with turn total t, best play after) and its slope rs.

    bank_v[t] / bank_s[t]: value and slope of banking t (where can_bank[t]); end_v / end_s: a turn lost
    (farkle, or a bust under end=exact); cap_v / cap_s: a turn total past tmax (banked there); win_v: a
    win at once (five 1s, or reaching an exact target: under end=exact, tmax is the room left, and
    set-asides past it are not offered).
    """
    # dv[b, t, n]: value of having set aside up to turn total t with n dice in hand, b = 1 if a bank is
    # blocked (hot dice that must be rolled, or validation pending). Rows past tmax hold what they are
    # worth (-inf = not offered, under end=exact), so the inner loop has no branch.
    top = tmax + op.max() + 1 if op.size else tmax + 1
    dv = np.empty((2, top + 1, n_all + 1))
    ds = np.zeros((2, top + 1, n_all + 1))
    for t in range(tmax + 1, top + 1):
        for b in range(2):
            for n in range(n_all + 1):
                dv[b, t, n] = -np.inf if exact else cap_v
                ds[b, t, n] = 0.0 if exact else cap_s
    for t in range(tmax, -1, -1):
        for n in range(1, n_all + 1):
            v = 0.0
            s = 0.0
            for g in range(gs[n], gs[n + 1]):
                p = gp[g]
                if gw[g]:
                    v += p * win_v
                    continue
                best_v = -np.inf
                best_s = 0.0
                for o in range(os_[g], os_[g + 1]):
                    x = dv[ob[o], t + op[o], on[o]]
                    if x > best_v:
                        best_v = x
                        best_s = ds[ob[o], t + op[o], on[o]]
                if best_v == -np.inf:  # farkle, or every set-aside passes an exact target: bust
                    best_v = end_v
                    best_s = end_s
                v += p * best_v
                s += p * best_s
            rv[t, n] = v
            rs[t, n] = s
        for n in range(1, n_all + 1):
            if exact and t == tmax:  # the exact target is reached: won at once
                dv[0, t, n] = win_v
                dv[1, t, n] = win_v
                ds[0, t, n] = 0.0
                ds[1, t, n] = 0.0
                continue
            dv[1, t, n] = rv[t, n]
            ds[1, t, n] = rs[t, n]
            if can_bank[t] and bank_v[t] > rv[t, n]:
                dv[0, t, n] = bank_v[t]
                ds[0, t, n] = bank_s[t]
            else:
                dv[0, t, n] = rv[t, n]
                ds[0, t, n] = rs[t, n]


@njit(cache=True, nogil=True)
def final_turn_table(need_max, extra, entered_seat, may_bank, records, n_all,
                     gs, gp, gw, os_, op, on, ob):  # pragma: no cover - compiled
    """F[need]: chance that a player with one last turn scores more than ``need`` (a tie counts one half)."""
    out = np.zeros(need_max + 1)
    cols = may_bank.shape[1]
    for need in range(1, need_max + 1):
        tmax = min(need + extra, cols - 1)
        bank_v = np.zeros(tmax + 1)
        bank_s = np.zeros(tmax + 1)
        can = np.zeros(tmax + 1, dtype=np.bool_)
        for t in range(1, tmax + 1):
            can[t] = may_bank[entered_seat, t]
            if records[entered_seat, t]:
                bank_v[t] = 1.0 if t > need else (0.5 if t == need else 0.0)
        rv = np.zeros((tmax + 1, n_all + 1))
        rs = np.zeros((tmax + 1, n_all + 1))
        turn_sweep(tmax, n_all, bank_v, bank_s, can, 1.0, 0.0, 0.0, 0.0, 1.0, False,
                   gs, gp, gw, os_, op, on, ob, rv, rs)
        out[need] = rv[0, n_all]
    out[0] = 1.0
    return out


@njit(cache=True, nogil=True)
def _start_value(i, j, x, w, end, target, beyond, score, entered, offset, may_bank, records, final,
                 n_all, gs, gp, gw, os_, op, on, ob):  # pragma: no cover - compiled
    """Value and slope (in x = the opponent's value at (j, i)) of the start of i's turn against j."""
    tmax = min(target - score[i] + (0 if end == EXACT else beyond), may_bank.shape[1] - 1)
    bank_v = np.zeros(tmax + 1)
    bank_s = np.zeros(tmax + 1)
    can = np.zeros(tmax + 1, dtype=np.bool_)
    ej = 1 if entered[j] else 0
    for t in range(1, tmax + 1):
        can[t] = may_bank[i, t]
        if not can[t]:
            continue
        if not records[i, t]:
            bank_v[t] = 1.0 - x
            bank_s[t] = -1.0
            continue
        new = score[i] + t
        if new >= target:
            if end == LAST_ROUND:
                bank_v[t] = 1.0 - final[ej, min(new - score[j], final.shape[1] - 1)]
            else:
                bank_v[t] = 1.0
        else:
            bank_v[t] = 1.0 - w[j, new + offset]
    cap_v = 1.0 - final[ej, min(target + beyond - score[j], final.shape[1] - 1)] if end == LAST_ROUND else 1.0
    rv = np.zeros((tmax + 1, n_all + 1))
    rs = np.zeros((tmax + 1, n_all + 1))
    turn_sweep(tmax, n_all, bank_v, bank_s, can, cap_v, 0.0, 1.0 - x, -1.0, 1.0, end == EXACT,
               gs, gp, gw, os_, op, on, ob, rv, rs)
    return rv[0, n_all], rs[0, n_all]


@njit(cache=True, parallel=True)
def solve_two_players(w, end, target, beyond, score, entered, offset, may_bank, records, final, tol,
                      n_all, gs, gp, gw, os_, op, on, ob):  # pragma: no cover - compiled
    """Fill w[i, j]: chance that the player to move from seat i wins against seat j, with best play.

    States are taken by decreasing seat sum: a bank only moves to larger sums, a lost turn to the mirror
    state (j, i), which is solved together with (i, j) by Newton's method on the mover's value.
    """
    seats = w.shape[0]
    for level in range(2 * seats - 2, -1, -1):
        lo = max(0, level - seats + 1)
        hi = level // 2
        for i in prange(lo, hi + 1):
            j = level - i
            # Start from a neighbour already solved: values change little from one score to the next.
            u = w[i, j + 1] if j + 1 < seats else 0.5
            y = 0.5
            yd = 0.0
            for _ in range(60):
                if i == j:
                    g, gd = _start_value(i, i, u, w, end, target, beyond, score, entered, offset, may_bank,
                                         records, final, n_all, gs, gp, gw, os_, op, on, ob)
                    f = g - u
                    slope = gd - 1.0
                else:
                    y, yd = _start_value(j, i, u, w, end, target, beyond, score, entered, offset, may_bank,
                                         records, final, n_all, gs, gp, gw, os_, op, on, ob)
                    g, gd = _start_value(i, j, y, w, end, target, beyond, score, entered, offset, may_bank,
                                         records, final, n_all, gs, gp, gw, os_, op, on, ob)
                    f = g - u
                    slope = gd * yd - 1.0
                u_next = min(1.0, max(0.0, u - f / slope))
                # Both values are piecewise linear in u: the opponent's follows the Newton step linearly.
                y += yd * (u_next - u)
                u = u_next
                if abs(f) < tol:
                    break
            w[i, j] = u
            if i != j:
                w[j, i] = y
