"""Compiled kernels (numba): the backward sweep over a turn, and the two-player solve built on it.

Inside a turn the turn total only grows, so one sweep from the largest turn total down to 0 gives the
value of every (turn total, dice in hand). Each value carries its slope with respect to ``x``, the value
the opponent would have if this turn ended with nothing banked: Newton's method on that one number
solves the only cycle of the game, a farkle from (a, b) to (b, a) and back (Busche & Neller 2017).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["crossing_band", "final_turn_table", "penalty_pass", "solve_two_players", "turn_sweep"]

LAST_ROUND, FIRST, EXACT = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def _roll(g0, g1, at, dv, d0, d1, base, farkle_v, bust_v, win_v, table):  # pragma: no cover - compiled
    """Value (and slopes) of a roll of the groups g0:g1 of ``table`` (the rolls of some number of dice), each
    roll's best set-aside read at dv[base[o] + at]."""
    gp, gw, os_ = table[1], table[2], table[3]
    v = 0.0
    s0 = 0.0
    s1 = 0.0
    for g in range(g0, g1):
        p = gp[g]
        if gw[g]:
            v += p * win_v
            continue
        first = os_[g]
        last = os_[g + 1]
        if first == last:  # farkle
            v += p * farkle_v
            s0 -= p
            continue
        best_v = -np.inf
        best_k = 0
        for o in range(first, last):
            k = base[o] + at
            x = dv[k]
            if x > best_v:
                best_v = x
                best_k = k
        if best_v == -np.inf:  # every set-aside passes an exact target: bust
            v += p * bust_v
            s1 -= p
            continue
        v += p * best_v
        s0 += p * d0[best_k]
        s1 += p * d1[best_k]
    return v, s0, s1


@njit(cache=True, nogil=True)
def turn_sweep(tmax, n_all, bank_v, bank_s, can_bank, cap_v, farkle_v, bust_v, win_v, exact,
               far, near, lo, hi, rv, rs):  # pragma: no cover - compiled
    """Fill rv[t, n] (value of rolling n dice with turn total t, best play after) and its slopes rs, for
    t up to tmax, and past it in row tmax + 1 (rv and rs have tmax + 2 rows).

    bank_v[t]: value of banking t (where can_bank[t]); farkle_v: a farkle; bust_v: a bust (every
    set-aside passes an exact target); cap_v: a turn total past tmax (banked there); win_v: a win at once
    (five 1s, or reaching an exact target: under end=exact, tmax is the room left, and set-asides past
    it are not offered). Slopes come in two channels: rs[0] with respect to the value after a farkle,
    rs[1] after a turn lost otherwise (a bust, or a bank below the entry, whose slopes are bank_s[:, t]).
    ``far`` is a roll table (model.RollTable.arrays), ``near`` the crossing band's (model.BandTable.arrays):
    rolls at turn totals t in [lo, hi) weigh the set-asides of ``near`` at distance hi - t, the others those
    of ``far`` (under end=last-round, where a set-aside may carry the total across the target, more points
    are not always better: ``near`` compares fewer, see :func:`_band_row`).
    """
    # dv[b, t, n]: value of having set aside up to turn total t with n dice in hand, b = 1 if a bank is
    # blocked (hot dice that must be rolled, or validation pending). Rows past tmax hold what they are
    # worth (-inf = not offered, under end=exact), so the inner loop has no branch. The arrays are flat:
    # option o of a roll at turn total t reads entry base[o] + t * row.
    row = n_all + 1
    most = max(far[4].max() if far[4].size else 0, near[7].size - 1)
    top = tmax + most + 1
    plane = (top + 1) * row
    dv = np.empty(2 * plane)
    d0 = np.zeros(2 * plane)  # slope towards the value after a farkle
    d1 = np.zeros(2 * plane)  # slope towards the value after another lost turn
    base_far = far[6] * plane + far[4] * row + far[5]
    must_roll = near[9]  # the dice in hand with which a set-aside lands on the blocked plane
    base_near = near[6] * plane + near[8] if must_roll.any() else near[8]
    fill = -np.inf if exact else cap_v
    for t in range(tmax + 1, top + 1):
        for n in range(row):
            dv[t * row + n] = fill
            dv[plane + t * row + n] = fill
    if not exact and far[6].size and far[6].max() > 0:
        # Past tmax a state that may bank is banked (cap_v); one that must roll (hot dice, validation) is
        # worth the same at every total, B[n]: the rows past tmax of the blocked plane hold it, and rolling
        # from one of those rows is worth B again — a fixed point over a few values, iterated to it.
        past = (tmax + 1) * row
        for _ in range(1000):
            moved = 0.0
            for n in range(1, n_all + 1):
                v, s0, s1 = _roll(far[0][n], far[0][n + 1], past, dv, d0, d1, base_far, farkle_v, bust_v, win_v,
                                  far)
                moved = max(moved, abs(v - dv[plane + past + n]))
                for t in range(tmax + 1, top + 1):
                    k = plane + t * row + n
                    dv[k] = v
                    d0[k] = s0
                    d1[k] = s1
            if moved < 1e-15:
                break
    if not exact:
        # rv[tmax + 1, n]: rolling n dice past the horizon, for decisions there (hotdice.analysis.coach).
        for n in range(1, n_all + 1):
            v, s0, s1 = _roll(far[0][n], far[0][n + 1], (tmax + 1) * row, dv, d0, d1, base_far, farkle_v, bust_v,
                              win_v, far)
            rv[tmax + 1, n] = v
            rs[0, tmax + 1, n] = s0
            rs[1, tmax + 1, n] = s1
    band = near[0]
    broken = top + 1  # the lowest row swept so far worth more than the row above it where no cut allows it
    for t in range(tmax, -1, -1):
        at = t * row
        d = _band_row(t, lo, hi, broken, band.shape[0] - 1)
        for n in range(1, n_all + 1):
            if lo <= t < hi:
                v, s0, s1 = _roll(band[d, n], band[d, n + 1], at, dv, d0, d1, base_near, farkle_v, bust_v, win_v,
                                  near)
            else:
                v, s0, s1 = _roll(far[0][n], far[0][n + 1], at, dv, d0, d1, base_far, farkle_v, bust_v, win_v, far)
            rv[t, n] = v
            rs[0, t, n] = s0
            rs[1, t, n] = s1
        for n in range(1, n_all + 1):
            free = at + n
            blocked = plane + at + n
            if exact and t == tmax:  # the exact target is reached: won at once
                dv[free] = win_v
                dv[blocked] = win_v
                continue
            dv[blocked] = rv[t, n]
            d0[blocked] = rs[0, t, n]
            d1[blocked] = rs[1, t, n]
            if can_bank[t] and bank_v[t] > rv[t, n]:
                dv[free] = bank_v[t]
                d0[free] = bank_s[0, t]
                d1[free] = bank_s[1, t]
            else:
                dv[free] = rv[t, n]
                d0[free] = rs[0, t, n]
                d1[free] = rs[1, t, n]
        if _breaks(dv, t, row, n_all, 1, plane, must_roll, near[7], lo, hi):
            broken = t


@njit(cache=True, nogil=True, inline="always")
def _band_row(t, lo, hi, broken, most):  # pragma: no cover - compiled
    """The row of the band table the rolls at turn total t weigh: the distance to the target, or 0 (every
    set-aside) where a row it may land on is worth more than the row above it with no cut between them
    (``broken``: the lowest such row swept so far). Exact either way: the rows compare points only where the
    values swept rise with them."""
    if lo <= t < hi and broken > t + most - 1:
        return hi - t
    return 0


@njit(cache=True, nogil=True, inline="always")
def _breaks(dv, t, row, n_all, channels, plane, must_roll, cut, lo, hi):  # pragma: no cover - compiled
    """Whether row t, just swept, is worth more than row t + 1 for some dice in hand (and channel) where the
    band's tables assume it is not: t lies where rolls of the band may land, and no cut sits between t and
    t + 1 (on the blocked plane, for the dice in hand of ``must_roll``: the only ones a set-aside lands on there)."""
    most = cut.size - 1
    if not lo < t < hi + most - 1:
        return False
    e = hi - t
    if 0 < e <= most and cut[e]:
        return False
    for b in range(2):
        for n in range(1, n_all + 1):
            if b and not must_roll[n]:
                continue
            k = (b * plane + t * row + n) * channels
            for c in range(channels):
                if dv[k + c] > dv[k + row * channels + c]:
                    return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _roll3(g0, g1, at, dv, d0, d1, base, farkle_v, bust_v, win_v, table, v, s0, s1):  # pragma: no cover - compiled
    """:func:`_roll` for three values after a farkle at once (channels, last and contiguous in dv): one walk
    over the rolls and set-asides, a best set-aside per channel; fills v, s0, s1."""
    gp, gw, os_ = table[1], table[2], table[3]
    f0, f1, f2 = farkle_v[0], farkle_v[1], farkle_v[2]
    v0 = v1 = v2 = 0.0
    a0 = a1 = a2 = 0.0  # slopes towards the value after a farkle
    b0 = b1 = b2 = 0.0  # towards the value after another lost turn
    for g in range(g0, g1):
        p = gp[g]
        if gw[g]:
            v0 += p * win_v
            v1 += p * win_v
            v2 += p * win_v
            continue
        first = os_[g]
        last = os_[g + 1]
        if first == last:  # farkle
            v0 += p * f0
            v1 += p * f1
            v2 += p * f2
            a0 -= p
            a1 -= p
            a2 -= p
            continue
        x0 = x1 = x2 = -np.inf
        k0 = k1 = k2 = 0
        for o in range(first, last):
            k = (base[o] + at) * 3
            y = dv[k]
            if y > x0:
                x0 = y
                k0 = k
            y = dv[k + 1]
            if y > x1:
                x1 = y
                k1 = k + 1
            y = dv[k + 2]
            if y > x2:
                x2 = y
                k2 = k + 2
        if x0 == -np.inf:  # every set-aside passes an exact target: bust (in every channel)
            v0 += p * bust_v
            v1 += p * bust_v
            v2 += p * bust_v
            b0 -= p
            b1 -= p
            b2 -= p
            continue
        v0 += p * x0
        v1 += p * x1
        v2 += p * x2
        a0 += p * d0[k0]
        a1 += p * d0[k1]
        a2 += p * d0[k2]
        b0 += p * d1[k0]
        b1 += p * d1[k1]
        b2 += p * d1[k2]
    v[0], v[1], v[2] = v0, v1, v2
    s0[0], s0[1], s0[2] = a0, a1, a2
    s1[0], s1[1], s1[2] = b0, b1, b2


@njit(cache=True, nogil=True)
def _start_sweep(tmax, n_all, bank_v, bank_s, can_bank, cap_v, farkle_v, bust_v, win_v, exact, far, near, lo, hi,
                 out):  # pragma: no cover - compiled
    """:func:`turn_sweep`'s value of rolling every die at turn total 0, out[0, c], and its slopes out[1:, c],
    for three values after a farkle farkle_v[c] at once: states that differ only in it (the mover's farkles
    in a row) share the walk over the rolls."""
    c_all = 3
    row = n_all + 1
    most = max(far[4].max() if far[4].size else 0, near[7].size - 1)
    top = tmax + most + 1
    plane = (top + 1) * row
    dv = np.empty(2 * plane * c_all)
    d0 = np.zeros(2 * plane * c_all)
    d1 = np.zeros(2 * plane * c_all)
    base_far = far[6] * plane + far[4] * row + far[5]
    must_roll = near[9]  # the dice in hand with which a set-aside lands on the blocked plane
    base_near = near[6] * plane + near[8] if must_roll.any() else near[8]
    v = np.empty(c_all)
    s0 = np.empty(c_all)
    s1 = np.empty(c_all)
    fill = -np.inf if exact else cap_v
    dv[(tmax + 1) * row * c_all: plane * c_all] = fill
    dv[(plane + (tmax + 1) * row) * c_all:] = fill
    if not exact and far[6].size and far[6].max() > 0:
        past = (tmax + 1) * row
        for _ in range(1000):
            moved = 0.0
            for n in range(1, n_all + 1):
                _roll3(far[0][n], far[0][n + 1], past, dv, d0, d1, base_far, farkle_v, bust_v, win_v, far, v, s0,
                       s1)
                for c in range(c_all):
                    moved = max(moved, abs(v[c] - dv[(plane + past + n) * c_all + c]))
                for t in range(tmax + 1, top + 1):
                    k = (plane + t * row + n) * c_all
                    dv[k: k + c_all] = v
                    d0[k: k + c_all] = s0
                    d1[k: k + c_all] = s1
            if moved < 1e-15:
                break
    # A bank is taken without weighing the rolls where it beats every roll's best case: each roll's chance of
    # a win, of a farkle, and of the best value above (best[c]: any set-aside leads to a larger total) for the
    # rest. Not with dice in hand a set-aside may leave on the blocked plane: there the state must roll, so the
    # rolls are weighed (under 5000, only with every die in hand, after hot dice). The blocked plane's values are
    # at most the free plane's (the same rolls, and a bank besides), but past tmax it holds the must-roll values,
    # which the best value starts from.
    p_win = np.zeros(row)
    p_farkle = np.zeros(row)
    for n in range(1, row):
        for g in range(far[0][n], far[0][n + 1]):
            if far[2][g]:
                p_win[n] += far[1][g]
            elif far[3][g] == far[3][g + 1]:
                p_farkle[n] += far[1][g]
    best = np.full(c_all, max(fill, bust_v))  # the best value above the row swept (each channel)
    if not exact:
        for n in range(1, n_all + 1):
            if must_roll[n]:
                for c in range(c_all):
                    best[c] = max(best[c], dv[(plane + (tmax + 1) * row + n) * c_all + c])
    band = near[0]
    broken = top + 1  # as in turn_sweep
    for t in range(tmax, -1, -1):
        at = t * row
        d = _band_row(t, lo, hi, broken, band.shape[0] - 1)
        for n in range(1 if t else n_all, n_all + 1):
            if not must_roll[n] and t and can_bank[t] and not (exact and t == tmax):
                rest = 1.0 - p_win[n] - p_farkle[n]
                sure = True
                for c in range(c_all):
                    # The margin covers rounding: where it decides, the sweep would have banked too.
                    if bank_v[t] <= p_win[n] * win_v + p_farkle[n] * farkle_v[c] + rest * best[c] + 1e-12:
                        sure = False
                if sure:
                    free = (at + n) * c_all
                    dv[free: free + c_all] = bank_v[t]
                    d0[free: free + c_all] = bank_s[0, t]
                    d1[free: free + c_all] = bank_s[1, t]
                    continue
            if lo <= t < hi:
                _roll3(band[d, n], band[d, n + 1], at, dv, d0, d1, base_near, farkle_v, bust_v, win_v, near, v, s0,
                       s1)
            else:
                _roll3(far[0][n], far[0][n + 1], at, dv, d0, d1, base_far, farkle_v, bust_v, win_v, far, v, s0, s1)
            if t == 0:
                out[0] = v
                out[1] = s0
                out[2] = s1
                break
            free = (at + n) * c_all
            blocked = (plane + at + n) * c_all
            if exact and t == tmax:  # the exact target is reached: won at once
                dv[free: free + c_all] = win_v
                dv[blocked: blocked + c_all] = win_v
                continue
            dv[blocked: blocked + c_all] = v
            d0[blocked: blocked + c_all] = s0
            d1[blocked: blocked + c_all] = s1
            for c in range(c_all):
                if can_bank[t] and bank_v[t] > v[c]:
                    dv[free + c] = bank_v[t]
                    d0[free + c] = bank_s[0, t]
                    d1[free + c] = bank_s[1, t]
                else:
                    dv[free + c] = v[c]
                    d0[free + c] = s0[c]
                    d1[free + c] = s1[c]
        for n in range(1, n_all + 1 if t else 1):
            for c in range(c_all):
                best[c] = max(best[c], dv[(at + n) * c_all + c])
        if t and _breaks(dv, t, row, n_all, c_all, plane, must_roll, near[7], lo, hi):
            broken = t


@njit(cache=True, nogil=True)
def crossing_band(end, room, near):  # pragma: no cover - compiled
    """Turn totals [lo, hi) from which a set-aside may carry the total across the target (room = target
    less the banked score) under end=last-round: there the ``near`` table's set-asides are weighed."""
    if end != LAST_ROUND or near[7].size == 1:
        return 0, 0
    return max(0, room - (near[7].size - 1)), room


@njit(cache=True, nogil=True)
def pair_turn(i, j, fo, xf, xb, w4, final, st_score, st_entered, may_bank, records, tmax, target, end, offset,
              n_all, beyond, far, near, bank_v, can, rv):  # pragma: no cover - compiled
    """One turn from seat ``i`` against seat ``j`` (its farkles in a row ``fo``), as the start value weighs it:
    fills ``bank_v`` (the chance of a bank at each turn total), ``can`` (may bank) and ``rv`` (the value of
    rolling each (turn total, dice in hand)); returns the value past the last-round cap. ``xf``/``xb``: the
    opponent's chances after the mover's farkle and after a bank that is not recorded."""
    bank_v[:] = 0.0
    can[:] = False
    ej = 1 if st_entered[j] else 0
    for t in range(tmax + 1):
        can[t] = may_bank[i, t]
    for t in range(1, tmax + 1):
        if not can[t]:
            continue
        if not records[i, t]:
            bank_v[t] = 1.0 - xb
            continue
        new = st_score[i] + t
        if new >= target:
            if end == LAST_ROUND:
                bank_v[t] = 1.0 - final[ej, min(new - st_score[j], final.shape[1] - 1)]
            else:
                bank_v[t] = 1.0
        else:
            bank_v[t] = 1.0 - w4[j, new + offset, fo, 0]
    cap = 1.0
    if end == LAST_ROUND:
        cap = 1.0 - final[ej, min(target + beyond - st_score[j], final.shape[1] - 1)]
    rv[:, :] = 0.0
    rs = np.zeros((2, rv.shape[0], n_all + 1))
    lo, hi = crossing_band(end, target - st_score[i], near)
    turn_sweep(tmax, n_all, bank_v, np.zeros((2, tmax + 1)), can, cap, 1.0 - xf, 1.0 - xb, 1.0, end == EXACT,
               far, near, lo, hi, rv, rs)
    return cap


@njit(cache=True, nogil=True)
def final_turn_table(need_max, extra, entered_seat, may_bank, records, n_all, far, unbanded
                     ):  # pragma: no cover - compiled
    """F[need]: chance that a player with one last turn scores more than ``need`` (a tie counts one half)."""
    out = np.zeros(need_max + 1)
    cols = may_bank.shape[1]
    for need in range(1, need_max + 1):
        tmax = min(need + extra, cols - 1)
        bank_v = np.zeros(tmax + 1)
        bank_s = np.zeros((2, tmax + 1))
        can = np.zeros(tmax + 1, dtype=np.bool_)
        for t in range(1, tmax + 1):
            can[t] = may_bank[entered_seat, t]
            if records[entered_seat, t]:
                bank_v[t] = 1.0 if t > need else (0.5 if t == need else 0.0)
        rv = np.zeros((tmax + 2, n_all + 1))
        rs = np.zeros((2, tmax + 2, n_all + 1))
        turn_sweep(tmax, n_all, bank_v, bank_s, can, 1.0, 0.0, 0.0, 1.0, False, far, unbanded, 0, 0, rv, rs)
        out[need] = rv[0, n_all]
    out[0] = 1.0
    return out


@njit(cache=True, nogil=True)
def _bank_row(i, j, fj, xb, w, end, target, beyond, score, entered, offset, may_bank, records, final, near, tmaxes
              ):  # pragma: no cover - compiled
    """All a turn of i against j (whose farkles in a row are fj) is swept with but the value after a farkle:
    tmax, bank values and slopes, where a bank is allowed, the value past the cap, and the crossing band."""
    tmax = tmaxes[i]
    bank_v = np.zeros(tmax + 1)
    bank_s = np.zeros((2, tmax + 1))
    can = np.zeros(tmax + 1, dtype=np.bool_)
    ej = 1 if entered[j] else 0
    for t in range(1, tmax + 1):
        can[t] = may_bank[i, t]
        if not can[t]:
            continue
        if not records[i, t]:
            bank_v[t] = 1.0 - xb
            bank_s[1, t] = -1.0
            continue
        new = score[i] + t
        if new >= target:
            if end == LAST_ROUND:
                bank_v[t] = 1.0 - final[ej, min(new - score[j], final.shape[1] - 1)]
            else:
                bank_v[t] = 1.0
        else:
            bank_v[t] = 1.0 - w[j, new + offset, fj, 0]
    cap_v = 1.0 - final[ej, min(target + beyond - score[j], final.shape[1] - 1)] if end == LAST_ROUND else 1.0
    lo, hi = crossing_band(end, target - score[i], near)
    return tmax, bank_v, bank_s, can, cap_v, lo, hi


@njit(cache=True, nogil=True)
def _start_value(i, j, fj, xf, xb, w, end, target, beyond, score, entered, offset, may_bank, records, final,
                 n_all, far, near, tmaxes):  # pragma: no cover - compiled
    """Value of the start of i's turn against j (whose farkles in a row are fj), and its slopes.

    xf: the opponent's value after this turn ends in a farkle; xb: after it ends otherwise with nothing
    banked (a bust, or a bank below the entry). w[a, b, fa, fb]: the table, counts of farkles in a row
    last (one count when the rules have no penalty). Returns (value, d value / d xf, d value / d xb).
    """
    tmax, bank_v, bank_s, can, cap_v, lo, hi = _bank_row(i, j, fj, xb, w, end, target, beyond, score, entered,
                                                         offset, may_bank, records, final, near, tmaxes)
    rv = np.zeros((tmax + 2, n_all + 1))
    rs = np.zeros((2, tmax + 2, n_all + 1))
    turn_sweep(tmax, n_all, bank_v, bank_s, can, cap_v, 1.0 - xf, 1.0 - xb, 1.0, end == EXACT,
               far, near, lo, hi, rv, rs)
    return rv[0, n_all], rs[0, 0, n_all], rs[1, 0, n_all]


@njit(cache=True, nogil=True)
def _start_values(i, j, fj, xf, xb, w, end, target, beyond, score, entered, offset, may_bank, records, final,
                  n_all, far, near, tmaxes):  # pragma: no cover - compiled
    """:func:`_start_value` for three values xf[c] of the opponent after a farkle at once: out[0, c] the
    value, out[1, c] and out[2, c] its slopes."""
    tmax, bank_v, bank_s, can, cap_v, lo, hi = _bank_row(i, j, fj, xb, w, end, target, beyond, score, entered,
                                                         offset, may_bank, records, final, near, tmaxes)
    out = np.empty((3, xf.size))
    _start_sweep(tmax, n_all, bank_v, bank_s, can, cap_v, 1.0 - xf, 1.0 - xb, 1.0, end == EXACT, far, near, lo, hi,
                 out)
    return out


@njit(cache=True, parallel=True)
def solve_two_players(w, end, target, beyond, score, entered, offset, may_bank, records, final, tol,
                      n_all, far, near, tmaxes, top, bottom):  # pragma: no cover - compiled
    """Fill w[i, j, 0, 0]: chance that the player to move from seat i wins against seat j, with best play
    (rules without the three-farkle penalty), for the seat sums ``top`` down to ``bottom`` (the larger sums
    solved already: a caller reports progress between slices).

    States are taken by decreasing seat sum: a bank only moves to larger sums, a lost turn to the mirror
    state (j, i), which is solved together with (i, j) by Newton's method on the mover's value.
    """
    seats = w.shape[0]
    for level in range(top, bottom - 1, -1):
        lo = max(0, level - seats + 1)
        hi = level // 2
        for i in prange(lo, hi + 1):
            j = level - i
            # Start from a neighbour already solved: values change little from one score to the next.
            u = w[i, j + 1, 0, 0] if j + 1 < seats else 0.5
            y = 0.5
            yd = 0.0
            for _ in range(60):
                if i == j:
                    g, gf, gb = _start_value(i, i, 0, u, u, w, end, target, beyond, score, entered, offset,
                                             may_bank, records, final, n_all, far, near, tmaxes)
                    f = g - u
                    slope = gf + gb - 1.0
                else:
                    y, yf, yb = _start_value(j, i, 0, u, u, w, end, target, beyond, score, entered, offset,
                                             may_bank, records, final, n_all, far, near, tmaxes)
                    yd = yf + yb
                    g, gf, gb = _start_value(i, j, 0, y, y, w, end, target, beyond, score, entered, offset,
                                             may_bank, records, final, n_all, far, near, tmaxes)
                    f = g - u
                    slope = (gf + gb) * yd - 1.0
                u_next = min(1.0, max(0.0, u - f / slope))
                # Both values are piecewise linear in u: the opponent's follows the Newton step linearly.
                y += yd * (u_next - u)
                u = u_next
                if abs(f) < tol:
                    break
            w[i, j, 0, 0] = u
            if i != j:
                w[j, i, 0, 0] = y


@njit(cache=True, parallel=True)
def penalty_pass(w, penalty_seat, end, target, beyond, score, entered, offset, may_bank, records, final,
                 n_all, far, near, tmaxes, top, bottom):  # pragma: no cover - compiled
    """One pass over the seat sums ``top`` down to ``bottom`` of w[i, j, fi, fj] under the three-farkle penalty
    (fi, fj: farkles in a row, 0 to 2); returns the largest change of a value.

    The third farkle in a row moves a player down to penalty_seat[i], a lower seat sum, read as the previous
    pass left it: passes are repeated (``two_player``). The 18 states of a pair of seats {i, j} (both orders,
    every count) are tied by lost turns and take one step of Newton's method together; banks lead to higher
    sums, solved earlier in the pass, so each pass uses the freshest values.
    """
    seats = w.shape[0]
    change = 0.0
    for level in range(top, bottom - 1, -1):
        lo = max(0, level - seats + 1)
        hi = level // 2
        moved = np.zeros(hi + 1)
        for i in prange(lo, hi + 1):
            moved[i] = _solve_pair(w, penalty_seat, i, level - i, end, target, beyond, score, entered, offset,
                                   may_bank, records, final, n_all, far, near, tmaxes)
        change = max(change, moved.max())
    return change


@njit(cache=True, nogil=True)
def _solve_pair(w, penalty_seat, i, j, end, target, beyond, score, entered, offset, may_bank, records, final,
                n_all, far, near, tmaxes):  # pragma: no cover - compiled
    """One step of Newton's method on the 18 states of seats {i, j}; returns the largest change of a value."""
    # State k < 9: (mover i, opponent j, fi = k // 3, fj = k % 3); k >= 9: (mover j, opponent i,
    # fj = (k - 9) // 3, fi = (k - 9) % 3). On the diagonal i == j both halves are the same states: the
    # second half copies the first half's sweeps.
    n = 18
    mover = np.empty(n, dtype=np.int64)
    opp = np.empty(n, dtype=np.int64)
    fm = np.empty(n, dtype=np.int64)
    fo = np.empty(n, dtype=np.int64)
    for k in range(n):
        half = k // 9
        a = (k % 9) // 3
        b = k % 3
        mover[k] = i if half == 0 else j
        opp[k] = j if half == 0 else i
        fm[k] = a
        fo[k] = b
    x = np.empty(n)
    for k in range(n):
        x[k] = w[mover[k], opp[k], fm[k], fo[k]]
    # Where each state's lost turns lead: an index in the group, or -1 for a state outside it.
    to_farkle = np.empty(n, dtype=np.int64)
    to_miss = np.empty(n, dtype=np.int64)
    for k in range(n):
        other = 9 if k < 9 else 0
        to_miss[k] = other + fo[k] * 3 + 0  # (opp, mover, fo, 0)
        if fm[k] < 2:
            to_farkle[k] = other + fo[k] * 3 + fm[k] + 1
        elif penalty_seat[mover[k]] == mover[k]:
            to_farkle[k] = to_miss[k]
        else:
            to_farkle[k] = -1
    g = np.empty(n)
    sf = np.empty(n)
    sb = np.empty(n)
    jac = np.zeros((n, n))
    xf = np.empty(3)
    for k0 in range(9 if i == j else n):
        if k0 % 9 >= 3:
            continue
        # The three states k0, k0 + 3, k0 + 6 differ only in the mover's farkles in a row: one sweep.
        for a in range(3):
            k = k0 + 3 * a
            xf[a] = x[to_farkle[k]] if to_farkle[k] >= 0 else w[opp[k], penalty_seat[mover[k]], fo[k], 0]
        out = _start_values(mover[k0], opp[k0], fo[k0], xf, x[to_miss[k0]], w, end, target, beyond, score, entered,
                            offset, may_bank, records, final, n_all, far, near, tmaxes)
        for a in range(3):
            k = k0 + 3 * a
            g[k], sf[k], sb[k] = out[0, a], out[1, a], out[2, a]
            if i == j:
                g[k + 9], sf[k + 9], sb[k + 9] = g[k], sf[k], sb[k]
    for k in range(n):
        if to_farkle[k] >= 0:
            jac[k, to_farkle[k]] += sf[k]
        jac[k, to_miss[k]] += sb[k]
        jac[k, k] -= 1.0
    step = _linear_solve(jac, g - x)
    change = 0.0
    for k in range(n):
        new = min(1.0, max(0.0, x[k] - step[k]))
        change = max(change, abs(new - x[k]))
        w[mover[k], opp[k], fm[k], fo[k]] = new
    return change


@njit(cache=True, nogil=True)
def _linear_solve(a, b):  # pragma: no cover - compiled
    """x with a x = b, by Gaussian elimination with partial pivoting (a and b are overwritten).

    np.linalg.solve inside numba needs scipy's LAPACK, which is not a dependency; the systems here are 18 × 18.
    """
    n = b.size
    for c in range(n):
        p = c
        for r in range(c + 1, n):
            if abs(a[r, c]) > abs(a[p, c]):
                p = r
        if p != c:
            for k in range(c, n):
                a[c, k], a[p, k] = a[p, k], a[c, k]
            b[c], b[p] = b[p], b[c]
        for r in range(c + 1, n):
            f = a[r, c] / a[c, c]
            if f != 0.0:
                for k in range(c, n):
                    a[r, k] -= f * a[c, k]
                b[r] -= f * b[c]
    x = np.empty(n)
    for r in range(n - 1, -1, -1):
        acc = b[r]
        for k in range(r + 1, n):
            acc -= a[r, k] * x[k]
        x[r] = acc / a[r, r]
    return x
