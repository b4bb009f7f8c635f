"""The optimal two-player strategy: the chance to win from the start of every turn, for every pair of seats.

Method of Busche & Neller, "Optimal Play of the Farkle Dice Game" (Advances in Computer Games 2017): keep
only start-of-turn values W[mover's seat, opponent's seat]; decisions inside a turn come from one backward
sweep over the turn total (:func:`kernel.turn_sweep`), computed when needed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.players.solver import kernel
from hotdice.players.solver.model import UNIT, RollTable, Seats, roll_table, seats
from hotdice.rules import End, Rules

__all__ = ["TwoPlayerSolution", "solve_two_players"]

# How far past the target turn totals are followed (units of 50). Under end=last-round, banking far past
# the target still matters (the opponent's last turn must beat it); past this, the turn is banked.
BEYOND = {End.LAST_ROUND: 100, End.FIRST: 40, End.EXACT: 0}
_END_CODE = {End.LAST_ROUND: kernel.LAST_ROUND, End.FIRST: kernel.FIRST, End.EXACT: kernel.EXACT}


@dataclass
class TwoPlayerSolution:
    rules: Rules
    seats: Seats
    table: RollTable
    w: npt.NDArray[np.float64]  # [mover's seat, opponent's seat] -> chance the mover wins
    final: npt.NDArray[np.float64]  # [opponent entered?, points needed (units)] -> chance of beating it
    seconds: float

    @property
    def beyond(self) -> int:
        return BEYOND[self.rules.end]

    def start_value(self, mover: int, opponent: int) -> float:
        """Chance that the player about to start a turn from seat ``mover`` wins against ``opponent``."""
        return float(self.w[mover, opponent])

    def turn_values(self, mover: int, opponent: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                               npt.NDArray[np.bool_], int]:
        """For one turn: rv[t, n] (rolling n dice at turn total t), bank values, where banking is allowed,
        and tmax (turn totals past it are banked there, or not offered under end=exact)."""
        t = _args(self)
        x = self.w[opponent, mover]
        return _turn_arrays(self, mover, opponent, float(x), t)


def _args(sol: TwoPlayerSolution) -> tuple[object, ...]:
    tb = sol.table
    return (tb.dice, tb.group_start, tb.group_p, tb.group_win, tb.opt_start, tb.opt_points, tb.opt_next,
            tb.opt_blocked)


def _turn_arrays(sol: TwoPlayerSolution, i: int, j: int, x: float, targs: tuple[object, ...]
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_], int]:
    """The same computation as kernel._start_value, kept in arrays for decisions inside the turn."""
    r = sol.rules
    st = sol.seats
    target = st.target
    offset = 1 if r.entry > 0 else 0
    score = st.score
    tmax = target - int(score[i]) if r.end is End.EXACT else target - int(score[i]) + sol.beyond
    tmax = min(tmax, st.max_total)
    bank_v = np.zeros(tmax + 1)
    can = st.may_bank[i, : tmax + 1].copy()
    ej = 1 if st.entered[j] else 0
    for t in range(1, tmax + 1):
        if not can[t]:
            continue
        if not st.records[i, t]:
            bank_v[t] = 1.0 - x
            continue
        new = int(score[i]) + t
        if new >= target:
            if r.end is End.LAST_ROUND:
                bank_v[t] = 1.0 - sol.final[ej, min(new - int(score[j]), sol.final.shape[1] - 1)]
            else:
                bank_v[t] = 1.0
        else:
            bank_v[t] = 1.0 - sol.w[j, new + offset]
    if r.end is End.LAST_ROUND:
        cap_v = 1.0 - sol.final[ej, min(target + sol.beyond - int(score[j]), sol.final.shape[1] - 1)]
    else:
        cap_v = 1.0
    n_all = sol.table.dice
    rv = np.zeros((tmax + 1, n_all + 1))
    rs = np.zeros((tmax + 1, n_all + 1))
    kernel.turn_sweep(tmax, n_all, bank_v, np.zeros(tmax + 1), can, cap_v, 0.0, 1.0 - x, -1.0, 1.0,
                      r.end is End.EXACT, *targs[1:], rv, rs)
    return rv, bank_v, can, tmax


def solve_two_players(rules: Rules, tol: float = 1e-12) -> TwoPlayerSolution:
    """Solve the two-player game of ``rules`` (without the three-farkle penalty: see penalty.py)."""
    if rules.three_farkles:
        raise ValueError("the three-farkle penalty needs the iterated solver")
    started = time.perf_counter()
    beyond = BEYOND[rules.end]
    st = seats(rules, beyond)
    tb = roll_table(rules)
    target = st.target
    offset = 1 if rules.entry > 0 else 0
    need_max = target + beyond
    final = np.zeros((2, need_max + 1))
    if rules.end is End.LAST_ROUND:
        for e in (0, 1):
            if e == 0 and not offset:
                continue
            seat = 0 if e == 0 else st.score.size - 1
            final[e] = kernel.final_turn_table(need_max, 40, seat, st.may_bank, st.records, tb.dice,
                                               tb.group_start, tb.group_p, tb.group_win, tb.opt_start,
                                               tb.opt_points, tb.opt_next, tb.opt_blocked)
    n = st.score.size
    w = np.zeros((n, n))
    kernel.solve_two_players(w, _END_CODE[rules.end], target, beyond, st.score, st.entered, offset, st.may_bank,
                             st.records, final, tol, tb.dice, tb.group_start, tb.group_p, tb.group_win,
                             tb.opt_start, tb.opt_points, tb.opt_next, tb.opt_blocked)
    return TwoPlayerSolution(rules, st, tb, w, final, time.perf_counter() - started)


if __name__ == "__main__":  # pragma: no cover - a quick look while developing
    import sys

    sol = solve_two_players(Rules.parse(sys.argv[1] if len(sys.argv) > 1 else "farkle"))
    print(f"solved in {sol.seconds:.1f} s; first player wins {sol.w[0, 0]:.6f}; UNIT={UNIT}")
