"""The optimal two-player strategy: the chance to win from the start of every turn, for every pair of seats.

Method of Busche & Neller, "Optimal Play of the Farkle Dice Game" (Advances in Computer Games 2017): keep
only start-of-turn values W[mover's seat, opponent's seat]; decisions inside a turn come from one backward
sweep over the turn total (:func:`kernel.turn_sweep`), computed when needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hotdice.analysis.solver import kernel
from hotdice.analysis.solver.model import UNIT, BandTable, RollTable, SeatStates, band_table, beyond, roll_table, seats
from hotdice.game.rules import End, Rules

__all__ = ["Progress", "TwoPlayerSolution", "solve_two_players"]

Progress = Callable[[float], None]  # told the share of a solve done so far, from 0 to 1

_END_CODE = {End.LAST_ROUND: kernel.LAST_ROUND, End.FIRST: kernel.FIRST, End.EXACT: kernel.EXACT}


@dataclass
class TwoPlayerSolution:
    rules: Rules
    seats: SeatStates
    table: RollTable
    w4: npt.NDArray[np.float64]  # [mover's seat, opponent's seat, mover's farkles in a row, opponent's]
    final: npt.NDArray[np.float64]  # [opponent entered?, points needed (units)] -> chance of beating it
    seconds: float
    passes: int = 0  # passes over the whole table (three-farkle penalty only)

    @property
    def w(self) -> npt.NDArray[np.float64]:
        """[mover's seat, opponent's seat] -> chance the player about to start a turn wins (no farkles in
        a row on either side)."""
        return self.w4[:, :, 0, 0]

    @property
    def beyond(self) -> int:
        return beyond(self.rules)

    @property
    def near(self) -> BandTable:
        """The rolls as weighed where a set-aside may cross the target (``table`` holds them elsewhere)."""
        return band_table(self.rules)

    def counts(self, farkles_in_row: Any) -> Any:
        """Index of a count of farkles in a row in the table (always 0 without the penalty); counts may be
        an array."""
        return np.minimum(farkles_in_row, int(self.w4.shape[2]) - 1)

    def turn_values(self, mover: int, opponent: int, fm: int = 0, fo: int = 0
                    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_], int]:
        """For one turn: rv[t, n] (rolling n dice at turn total t), bank values, where banking is allowed,
        and tmax (turn totals past it are banked there, or not offered under end=exact). ``fm``, ``fo``:
        farkles in a row of the mover and of the opponent."""
        xf, xb = self.opponent_after(mover, opponent, fm, fo)
        return _turn_arrays(self, mover, opponent, int(self.counts(fo)), float(xf), float(xb))

    def opponent_after(self, mover: Any, opponent: Any, fm: Any, fo: Any) -> tuple[Any, Any]:
        """The opponent's chance to win from the start of their turn after the mover's turn ends in a farkle,
        and after it ends with nothing banked (seats and counts as at its start; arrays of turns allowed)."""
        fm, fo = self.counts(fm), self.counts(fo)
        xb = self.w4[opponent, mover, fo, 0]
        depth = int(self.w4.shape[2])
        if not self.rules.three_farkles:
            return xb, xb
        counted = self.w4[opponent, mover, fo, np.minimum(fm + 1, depth - 1)]
        penalized = self.w4[opponent, self.penalty_seats()[mover], fo, 0]
        return np.where(fm + 1 < depth, counted, penalized), xb

    def penalty_seats(self) -> npt.NDArray[np.int64]:
        return penalty_seats(self.rules, self.seats)

    def fairest_handicap(self) -> tuple[int, float]:
        """Points given to the second player at the start (banked: they count as on the board) that bring the
        first player's chance closest to one half, with that chance."""
        r, w, st = self.rules, self.w, self.seats
        best = (0, float(w[0, 0]))
        for h in range(0, r.target, UNIT):
            p = float(w[0, st.seat_of(h // UNIT, h > 0 or r.entry == 0)])
            if abs(p - 0.5) < abs(best[1] - 0.5):
                best = (h, p)
        return best


def penalty_seats(rules: Rules, st: SeatStates) -> npt.NDArray[np.int64]:
    """The seat each seat falls to on a third farkle in a row (its score less the penalty, never below 0)."""
    p = rules.three_farkles // UNIT
    return np.array([st.seat_of(max(0, int(sc) - p), bool(en)) for sc, en in zip(st.score, st.entered, strict=True)],
                    dtype=np.int64)


def _turn_arrays(sol: TwoPlayerSolution, i: int, j: int, fo: int, xf: float, xb: float
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_], int]:
    """The same computation as kernel._start_value, kept in arrays for decisions inside the turn."""
    r = sol.rules
    st = sol.seats
    tmax = int(st.tmax[i])
    bank_v = np.zeros(tmax + 1)
    can = np.zeros(tmax + 1, dtype=np.bool_)
    rv = np.zeros((tmax + 2, sol.table.dice + 1))
    kernel.pair_turn(i, j, fo, xf, xb, sol.w4, sol.final, st.score, st.entered, st.may_bank, st.records, tmax,
                     st.target, _END_CODE[r.end], 1 if r.entry > 0 else 0, sol.table.dice, sol.beyond,
                     sol.table.arrays, sol.near.arrays, bank_v, can, rv)
    return rv, bank_v, can, tmax


# Under the three-farkle penalty, passes over the table stop once the change still to come is estimated
# below this: well below what the last-round horizon leaves (a Bellman residual of 4e-8, see BENCHMARKS.md)
# and the float32 rounding of a shipped table (3e-8); each pass more costs six 3-channel sweeps of a turn per
# pair of seats (a sixth of the solve at 10 000).
PENALTY_TOL = 1e-9
MAX_PASSES = 200
# Passes expected before the ratio of two passes' changes tells (5 under farkle and 5000 at the tolerance above).
PENALTY_PASSES = 5

# Seat sums solved between two reports of progress: about a hundred reports in a whole solve.
_SLICES = 100
# The share of a solve under the three-farkle penalty taken by the first guess when it is solved too (the
# game without the penalty): about one of its passes (BENCHMARKS.md), which take the rest.
PENALTY_GUESS_SHARE = 0.15


def solve_two_players(rules: Rules, tol: float = 1e-12, progress: Progress | None = None,
                      guess: npt.NDArray[np.float64] | None = None) -> TwoPlayerSolution:
    """Solve the two-player game of ``rules``; with the three-farkle penalty, by repeated passes from the
    game without it, ``guess`` (its w[i, j]) when the caller has that table at hand, else solved first.
    ``progress`` is told the share done as seat sums are solved, in every pass of the penalty's too."""
    started = time.perf_counter()
    past = beyond(rules)
    st = seats(rules)
    tb = roll_table(rules, by_points=True)  # more points are better, except across the target (``near``)
    near = band_table(rules)
    target = st.target
    offset = 1 if rules.entry > 0 else 0
    need_max = target + past
    final = np.zeros((2, need_max + 1))
    targs = (tb.dice, tb.arrays, near.arrays)
    if rules.end is End.LAST_ROUND:
        for e in (0, 1):
            if e == 0 and not offset:
                continue
            seat = 0 if e == 0 else st.score.size - 1
            final[e] = kernel.final_turn_table(need_max, 40, seat, st.may_bank, st.records, tb.dice, tb.arrays,
                                               tb.unbanded)
    n = st.score.size
    end = _END_CODE[rules.end]
    w4 = np.zeros((n, n, 1, 1))
    guessed = bool(rules.three_farkles) and guess is not None
    share = (0.0 if guessed else PENALTY_GUESS_SHARE) if rules.three_farkles else 1.0
    top = -1 if guessed else 2 * n - 2
    pairs = n * (n + 1) / 2  # the pairs of seats {i, j}: a seat sum holds about as many as its diagonal
    done = 0.0
    step = max(1, (top + 1) // _SLICES)
    if guessed:
        w4[:, :, 0, 0] = guess
    while top >= 0:
        bottom = max(0, top - step + 1)
        kernel.solve_two_players(w4, end, target, past, st.score, st.entered, offset, st.may_bank, st.records,
                                 final, tol, *targs, st.tmax, top, bottom)
        done += _pairs(bottom, top, n)
        if progress is not None:
            progress(share * min(1.0, done / pairs))
        top = bottom - 1
    passes = 0
    if rules.three_farkles:
        # The game without the penalty is a close first guess for every count of farkles in a row.
        w4 = np.repeat(np.repeat(w4, 3, axis=2), 3, axis=3)
        passes = _penalty_passes(w4, rules, st, final, max(tol, PENALTY_TOL), targs, share, progress)
        if progress is not None:
            progress(1.0)
    return TwoPlayerSolution(rules, st, tb, w4, final, time.perf_counter() - started, passes)


def _pairs(bottom: int, top: int, n: int) -> int:
    """The pairs of seats {i, j} (of n seats) whose sum is from ``bottom`` to ``top``: what a slice solves."""
    return sum(min(s, 2 * n - 2 - s) // 2 + 1 for s in range(bottom, top + 1))


def _penalty_passes(w4: npt.NDArray[np.float64], rules: Rules, st: SeatStates, final: npt.NDArray[np.float64],
                    tol: float, targs: tuple[object, ...], start: float, progress: Progress | None) -> int:
    """Passes over the table under the three-farkle penalty until the change still to come is below ``tol``;
    returns their number. The largest change shrinks by a steady factor from one pass to the next (about 1/60
    under farkle): the change to come is estimated from the last two. ``progress`` is told the share done
    as seat sums are solved, from ``start`` on, against the passes expected (:data:`PENALTY_PASSES` until the
    factor is known)."""
    n = st.score.size
    pen = penalty_seats(rules, st)
    top = 2 * n - 2
    step = max(1, (top + 1) // _SLICES)
    pairs = n * (n + 1) / 2
    expected = float(PENALTY_PASSES)
    told = start
    previous = 0.0
    for p in range(MAX_PASSES):
        change = 0.0
        done = 0.0
        level = top
        while level >= 0:
            bottom = max(0, level - step + 1)
            change = max(change, kernel.penalty_pass(
                w4, pen, _END_CODE[rules.end], st.target, beyond(rules), st.score, st.entered,
                1 if rules.entry > 0 else 0, st.may_bank, st.records, final, *targs, st.tmax, level, bottom))
            done += _pairs(bottom, level, n)
            if progress is not None:
                # Never backwards, and short of the end until the passes stop.
                told = max(told, min(0.99, start + (1.0 - start) * (p + done / pairs) / expected))
                progress(told)
            level = bottom - 1
        ratio = change / previous if p > 0 else 1.0  # no ratio yet after the first pass
        if change < tol or (ratio < 0.5 and change * ratio / (1.0 - ratio) < tol):
            return p + 1
        if ratio < 0.5:  # passes still to come at this ratio, each shrinking the change by it
            expected = p + 1 + max(1.0, np.ceil(np.log(tol * (1.0 - ratio) / (change * ratio)) / np.log(ratio)))
        previous = change
    return MAX_PASSES
