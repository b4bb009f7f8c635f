"""The solo race: reach the target in the fewest turns on average.

E[seat] is the expected number of turns still needed from the start of a turn. A bank moves to a higher
seat (or reaches the target); a lost turn stays on the same seat, the only cycle, solved by Newton's
method on E[seat] as in the two-player solver. Values are negated so the same maximising sweep applies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.analysis.solver import kernel
from hotdice.analysis.solver.model import RollTable, SeatStates, roll_table, seats
from hotdice.analysis.solver.two_player import Progress
from hotdice.game.rules import End, Rules

__all__ = ["RaceSolution", "solve_race"]



@dataclass
class RaceSolution:
    rules: Rules
    seats: SeatStates
    table: RollTable
    turns: npt.NDArray[np.float64]  # expected turns still needed, per seat
    seconds: float

    def turn_values(self, seat: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                              npt.NDArray[np.bool_], int]:
        """rv[t, n] (minus the expected turns after rolling n dice at turn total t), bank values, where a
        bank is allowed, and tmax — as in :meth:`TwoPlayerSolution.turn_values`."""
        rv, _, bank_v, can, tmax = _sweep(self, seat, float(self.turns[seat]))
        return rv, bank_v, can, tmax


def _sweep(sol: RaceSolution, seat: int, stay: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                              npt.NDArray[np.float64], npt.NDArray[np.bool_], int]:
    r = sol.rules
    st = sol.seats
    tb = sol.table
    offset = 1 if r.entry > 0 else 0
    score = int(st.score[seat])
    exact = r.end is End.EXACT
    tmax = int(st.tmax[seat])
    bank_v = np.zeros(tmax + 1)
    bank_s = np.zeros((2, tmax + 1))
    can = st.may_bank[seat, : tmax + 1].copy()
    for t in range(1, tmax + 1):
        if not can[t]:
            continue
        if not st.records[seat, t]:
            bank_v[t] = -stay
            bank_s[1, t] = -1.0
        elif score + t >= st.target:
            bank_v[t] = 0.0  # there: no more turns
        else:
            bank_v[t] = -sol.turns[score + t + offset]
    rv = np.zeros((tmax + 2, tb.dice + 1))
    rs = np.zeros((2, tmax + 2, tb.dice + 1))
    # Values are minus the turns still needed after this one (a lost turn leaves ``stay`` of them).
    kernel.turn_sweep(tmax, tb.dice, bank_v, bank_s, can, 0.0, -stay, -stay, 0.0, exact, tb.arrays, tb.unbanded, 0, 0,
                      rv, rs)
    return rv, rs, bank_v, can, tmax


def solve_race(rules: Rules, tol: float = 1e-10, progress: Progress | None = None) -> RaceSolution:
    """Expected turns to the target from every seat, with the play that minimises them; ``progress`` is told
    the share of seats solved, every hundredth."""
    if rules.three_farkles:
        raise ValueError("the race solver does not handle the three-farkle penalty")
    started = time.perf_counter()
    st = seats(rules)
    # Alone, more points are never worse (the race ends at the target): set-asides are compared by points.
    sol = RaceSolution(rules, st, roll_table(rules, by_points=True), np.zeros(st.score.size), 0.0)
    n_all = sol.table.dice
    for seat in range(st.score.size - 1, -1, -1):
        # A first guess a little above the seat above; Newton's method does the rest.
        e = (sol.turns[seat + 1] if seat + 1 < st.score.size else 1.0) + 1.0
        for _ in range(200):
            rv, rs, *_ = _sweep(sol, seat, e)
            # The turn: 1 + (turns after it) = 1 - value; at the fixed point this equals e.
            g = 1.0 - rv[0, n_all]
            gd = -(rs[0, 0, n_all] + rs[1, 0, n_all])
            f = g - e
            e_next = e - f / (gd - 1.0) if gd < 1.0 - 1e-9 else g
            if abs(f) < tol:
                e = e_next
                break
            e = e_next
        sol.turns[seat] = e
        done = st.score.size - seat
        if progress is not None and (done % max(1, st.score.size // 100) == 0 or seat == 0):
            progress(done / st.score.size)
    sol.seconds = time.perf_counter() - started
    return sol
