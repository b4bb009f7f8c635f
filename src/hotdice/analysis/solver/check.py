"""The Bellman residual of a solved table: how far each stored value is from one step of the equation it
must satisfy, with every legal set-aside (nothing pruned) and no limit on the turn total.

This is an independent check of the solvers: it shares only the engine's rules with them (``offered``, ``scorer``,
``bank_refusal``, ``bank_records``, ``needs_validation``, ``room_to_target``, ``wins_at_once``) and the
meaning of the table's indices. For every start-of-turn state it sweeps the turn once, valuing what
follows with the table itself, and reports the largest difference. With the three-farkle penalty the
table has the farkles in a row of both players: a farkle adds one, the third costs the penalty and
restarts the count, a bank or a bust restarts it (as the engine does).

Turn totals have no upper limit; where the value no longer depends on the total the check is exact. Once
a bank wins at once (end=first) or ends a race, a state that may bank is worth that, and the states that
may not (hot dice that must be rolled, a triple to validate) form a small fixed point over (dice in hand,
flags). Under end=last-round a bank past the target is worth ``1 - F(lead)``, ``F`` the opponent's chance
to beat the lead in their last turn, computed here exactly for every lead. The sweep goes up to a lead
where ``F`` is small; above it the check values states both ways, as worth banking there (a lower bound)
and as won (an upper bound), and reports the larger residual, so it never understates one; when the two
bounds differ by more than the residual found, it sweeps again up to a lead where ``F`` is below 1e-9.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from hotdice.analysis.solver.race import RaceSolution
from hotdice.analysis.solver.two_player import TwoPlayerSolution
from hotdice.game.dice import rolls_with_probability
from hotdice.game.engine import bank_records, bank_refusal, needs_validation, offered, room_to_target, wins_at_once
from hotdice.game.rules import End, Rules
from hotdice.game.scoring import scorer

__all__ = ["check"]

STEP = 50
# end=last-round: leads past the one where the last turn's chance falls below this are bounded; the first
# is tried first, the second when the bounds are too far apart to tell the residual.
TAIL_F = (1e-4, 1e-9)
LAST_ROUND, FIRST, EXACT = 0, 1, 2

F = TypeVar("F", bound=Callable[..., Any])
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def _compiled(parallel: bool = False) -> Callable[[F], F]:
    """numba's njit (cached on disk), typed for mypy."""
    return cast(Callable[[F], F], njit(cache=True, nogil=True, parallel=parallel))


def check(solution: TwoPlayerSolution | RaceSolution) -> float:
    """The largest Bellman residual of a solved table (chance to win, or expected turns for a race)."""
    if isinstance(solution, RaceSolution):
        return _check_race(solution)
    return _check_two_players(solution)


# -- the rolls and the engine's bank rules, as arrays ---------------------------------------------


def _column(n: int, hot: bool, validate: bool) -> int:
    """Deciding state after a set-aside: dice in hand, hot dice, a triple or full hand to validate."""
    return ((n - 1) * 2 + hot) * 2 + validate


class _Rolls:
    """Rolls of 1..N dice; rolls offering the same set-asides are merged (probabilities added)."""

    def __init__(self, rules: Rules) -> None:
        s = scorer(rules)
        n_all = rules.dice
        self.pwin: FloatArray = np.zeros(n_all + 1)
        self.pfarkle: FloatArray = np.zeros(n_all + 1)
        groups: list[dict[tuple[tuple[int, int], ...], float]] = [{} for _ in range(n_all + 1)]
        for n in range(1, n_all + 1):
            for roll, p in rolls_with_probability(n):
                options = offered(rules, roll)
                if s.wins_game(roll):
                    self.pwin[n] += float(p)
                elif not options:
                    self.pfarkle[n] += float(p)
                else:
                    key = tuple(sorted({
                        (o.points // STEP,
                         _column(o.dice_left or n_all, o.dice_left == 0, needs_validation(rules, o)))
                        for o in options
                    }))
                    groups[n][key] = groups[n].get(key, 0.0) + float(p)
        gstart, ostart = [0, 0], [0]
        gp: list[float] = []
        steps: list[int] = []
        cols: list[int] = []
        for n in range(1, n_all + 1):
            for key, prob in groups[n].items():
                gp.append(prob)
                steps.extend(st for st, _ in key)
                cols.extend(c for _, c in key)
                ostart.append(len(steps))
            gstart.append(len(gp))
        self.gstart = np.array(gstart, dtype=np.int64)
        self.gp = np.array(gp)
        self.ostart = np.array(ostart, dtype=np.int64)
        self.steps = np.array(steps, dtype=np.int64)
        self.cols = np.array(cols, dtype=np.int64)
        self.n_all = n_all
        self.width = _column(n_all, True, True) + 1

    def args(self) -> tuple[int, int, FloatArray, FloatArray, IntArray, FloatArray, IntArray, IntArray, IntArray]:
        return (self.n_all, self.width, self.pwin, self.pfarkle, self.gstart, self.gp, self.ostart, self.steps,
                self.cols)


def _stable(rules: Rules, entered: bool) -> int:
    """A turn total (steps) from which the bank rule no longer depends on the total."""
    return max(rules.entry if not entered else 0, rules.min_bank, STEP) // STEP


def _room(rules: Rules, score: int) -> int:
    """Under end=exact, the turn total (steps) that hits the target from ``score``; -1 otherwise."""
    room = room_to_target(rules, score * STEP, 0)
    return -1 if room is None else room // STEP


def _bank_rules(rules: Rules, score: int, entered: bool, top: int) -> tuple[BoolArray, BoolArray]:
    """may[t, hot * 2 + validate] for t = 0..top (the engine's bank_refusal), and records[t]."""
    may = np.zeros((top + 1, 4), dtype=np.bool_)
    records = np.zeros(top + 1, dtype=np.bool_)
    for t in range(1, top + 1):
        records[t] = bank_records(rules, entered=entered, turn_total=t * STEP)
        for f in range(4):
            may[t, f] = bank_refusal(rules, score=score * STEP, turn_total=t * STEP, entered=entered,
                                     hot_dice=bool(f // 2), must_validate=bool(f % 2)) is None
    return may, records


# -- compiled sweeps --------------------------------------------------------------------------------


@_compiled()
def _tail(n_all: int, width: int, pwin: FloatArray, pfarkle: FloatArray, gstart: IntArray, gp: FloatArray,
          ostart: IntArray, steps: IntArray, cols: IntArray, may: BoolArray, bank: float, lost: float,
          win: float) -> FloatArray:  # pragma: no cover - compiled
    """Deciding states at totals where nothing depends on the total: one that may bank is worth ``bank``;
    the others roll on (a fixed point over dice in hand and flags). Returns the value per column."""
    a = np.full(width, bank)
    if may.all():
        return a
    r = np.zeros(n_all + 1)
    for _ in range(100_000):
        for c in range(width):
            a[c] = bank if may[c % 4] else r[c // 4 + 1]
        moved = 0.0
        for n in range(1, n_all + 1):
            v = pwin[n] * win + pfarkle[n] * lost
            for g in range(gstart[n], gstart[n + 1]):
                best = -np.inf
                for o in range(ostart[g], ostart[g + 1]):
                    best = max(best, a[cols[o]])
                v += gp[g] * best
            moved = max(moved, abs(v - r[n]))
            r[n] = v
        if moved < 1e-17:
            break
    for c in range(width):
        a[c] = bank if may[c % 4] else r[c // 4 + 1]
    return a


@_compiled()
def _sweep(n_all: int, width: int, pwin: FloatArray, pfarkle: FloatArray, gstart: IntArray, gp: FloatArray,
           ostart: IntArray, steps: IntArray, cols: IntArray, top: int, may: BoolArray, bank: FloatArray,
           unrecorded: BoolArray, xf: float, xb: float, win: float, room: int,
           tail: FloatArray) -> tuple[float, float]:  # pragma: no cover - compiled
    """Value of the start of a turn (rolling all the dice at total 0), for both columns of ``tail``.

    may[t, flags], bank[t], unrecorded[t] (a bank that is not recorded loses the turn: ``xb``) for t up to
    ``top``; xf: a farkle; xb: a bust; win: five 1s or, with room >= 0 (end=exact), reaching ``room``;
    tail[col, k]: a deciding state past ``top``, for the lower (k = 0) and upper (k = 1) bound.
    """
    span = top + steps.max() + 2
    d = np.empty((span, width, 2))
    for t in range(top + 1, span):
        for c in range(width):
            d[t, c, 0] = tail[c, 0]
            d[t, c, 1] = tail[c, 1]
    r = np.empty((n_all + 1, 2))
    for t in range(top, -1, -1):
        for n in range(1, n_all + 1):
            v0 = pwin[n] * win + pfarkle[n] * xf
            v1 = v0
            for g in range(gstart[n], gstart[n + 1]):
                best0 = -np.inf
                best1 = -np.inf
                for o in range(ostart[g], ostart[g + 1]):
                    after = t + steps[o]
                    if room >= 0 and after >= room:
                        if after == room:
                            best0 = max(best0, win)
                            best1 = max(best1, win)
                        continue
                    best0 = max(best0, d[after, cols[o], 0])
                    best1 = max(best1, d[after, cols[o], 1])
                v0 += gp[g] * (xb if best0 == -np.inf else best0)
                v1 += gp[g] * (xb if best1 == -np.inf else best1)
            r[n, 0] = v0
            r[n, 1] = v1
        for c in range(width):
            n = c // 4 + 1
            v0 = r[n, 0]
            v1 = r[n, 1]
            if may[t, c % 4]:
                b = xb if unrecorded[t] else bank[t]
                v0 = max(v0, b)
                v1 = max(v1, b)
            d[t, c, 0] = v0
            d[t, c, 1] = v1
    return r[n_all, 0], r[n_all, 1]


@_compiled(parallel=True)
def _final_turns(n_all: int, width: int, pwin: FloatArray, pfarkle: FloatArray, gstart: IntArray, gp: FloatArray,
                 ostart: IntArray, steps: IntArray, cols: IntArray, may: BoolArray, records: BoolArray,
                 tail: FloatArray, most: int, stable: int) -> FloatArray:  # pragma: no cover - compiled
    """F[lead] for lead = 0..most: chance to end a last turn above ``lead`` (a tie counts one half).
    may/records cover totals up to most + stable + 2; ``tail`` is the value of a state past the lead and
    past ``stable`` (where the bank rule no longer depends on the total): banked if it may, else rolled."""
    out = np.zeros(most + 1)
    for lead in prange(most + 1):
        top = lead + stable + 1
        bank = np.zeros(top + 1)
        for t in range(1, top + 1):
            if records[t]:
                bank[t] = 1.0 if t > lead else (0.5 if t == lead else 0.0)
        unrecorded = np.zeros(top + 1, dtype=np.bool_)
        out[lead] = _sweep(n_all, width, pwin, pfarkle, gstart, gp, ostart, steps, cols, top, may, bank,
                           unrecorded, 0.0, 0.0, 1.0, -1, tail)[0]
    return out


@_compiled(parallel=True)
def _two_player_backups(n_all: int, width: int, pwin: FloatArray, pfarkle: FloatArray, gstart: IntArray,
                        gp: FloatArray, ostart: IntArray, steps: IntArray, cols: IntArray, w: FloatArray,
                        score: IntArray, entered: BoolArray, stable: IntArray, rooms: IntArray, offset: int,
                        target: int, end: int, cap: int, penalty_seat: IntArray, may: BoolArray,
                        records: BoolArray, wins: BoolArray, final: FloatArray) -> FloatArray:  # pragma: no cover
    """out[i, j, fm, fo, bound]: one step of the equation of w[i, j, fm, fo], from the table itself;
    bound 0 values the states past the last tabulated lead as banked there, bound 1 as won."""
    seats = w.shape[0]
    counts = w.shape[2]
    out = np.empty((seats, seats, counts, counts, 2))
    for k in prange(seats):
        i = k // 2 if k % 2 == 0 else seats - 1 - k // 2  # alternate long and short turns between threads
        si = score[i]
        tail = np.empty((width, 2))
        for j in range(seats):
            sj = score[j]
            ej = 1 if entered[j] else 0
            start = max(target - si, stable[i])
            room = rooms[i]
            if end == EXACT:
                top = room - 1
            elif end == LAST_ROUND:
                top = max(start, cap + sj - si) - 1
            else:
                top = start - 1
            for fm in range(counts):
                for fo in range(counts):
                    bank = np.zeros(top + 1)
                    for t in range(1, top + 1):
                        new = si + t
                        if not records[i, t] or (end == EXACT and new >= target):
                            continue
                        if wins[new]:
                            bank[t] = 1.0
                        elif new >= target:
                            bank[t] = 1.0 - final[ej, new - sj]
                        else:
                            bank[t] = 1.0 - w[j, new + offset, fo, 0]
                    # A farkle adds one to the count; at the last count (the only one without the penalty),
                    # the penalty seat (the seat itself without the penalty) with the count restarted.
                    xf = 1.0 - (w[j, i, fo, fm + 1] if fm + 1 < counts else w[j, penalty_seat[i], fo, 0])
                    xb = 1.0 - w[j, i, fo, 0]
                    low = 1.0 - final[ej, si + top + 1 - sj] if end == LAST_ROUND else 1.0
                    if end != EXACT:
                        tail[:, 0] = _tail(n_all, width, pwin, pfarkle, gstart, gp, ostart, steps, cols,
                                           may[i, top + 1], low, xf, 1.0)
                        tail[:, 1] = _tail(n_all, width, pwin, pfarkle, gstart, gp, ostart, steps, cols,
                                           may[i, top + 1], 1.0, xf, 1.0)
                    else:
                        tail[:, :] = 0.0
                    low_v, high_v = _sweep(n_all, width, pwin, pfarkle, gstart, gp, ostart, steps, cols, top, may[i],
                                           bank, ~records[i], xf, xb, 1.0, room, tail)
                    out[i, j, fm, fo, 0] = low_v
                    out[i, j, fm, fo, 1] = high_v
    return out


# -- two players ----------------------------------------------------------------------------------


def _final_table(rules: Rules, rolls: _Rolls, entered: bool, most: int) -> FloatArray:
    top = most + _stable(rules, entered) + 1
    # Under end=last-round the bank rule does not depend on the score (the 4900 rule needs end=exact).
    may, records = _bank_rules(rules, 0, entered, top + 1)
    tail = _tail(*rolls.args(), may[top + 1], 1.0, 0.0, 1.0)
    return np.asarray(_final_turns(*rolls.args(), may, records, np.stack([tail, tail], axis=1), most,
                                   _stable(rules, entered)))


def _table(solution: TwoPlayerSolution) -> FloatArray:
    """[mover, opponent, mover's farkles in a row, opponent's] (one count without the penalty)."""
    w4 = getattr(solution, "w4", None)
    return np.ascontiguousarray(w4 if w4 is not None else solution.w[:, :, None, None], dtype=np.float64)


def _check_two_players(sol: TwoPlayerSolution) -> float:
    r = sol.rules
    rolls = _Rolls(r)
    w = _table(sol)
    scores = np.asarray(sol.seats.score, dtype=np.int64)
    entered = np.asarray(sol.seats.entered, dtype=np.bool_)
    offset = 1 if r.entry else 0
    target = r.target // STEP
    end = {End.LAST_ROUND: LAST_ROUND, End.FIRST: FIRST, End.EXACT: EXACT}[r.end]
    residual = 0.0
    final = np.zeros((2, 1))
    tables: dict[bool, FloatArray] = {}
    most = 0
    stable = np.array([_stable(r, bool(e)) for e in entered], dtype=np.int64)
    if r.end is End.LAST_ROUND:
        reach = 2 * target + int(stable.max()) + 2  # the largest lead a bank can make, less the cap
        most = reach + 400
        while True:
            tables = {e: _final_table(r, rolls, e, most) for e in (False, True) if e in set(entered.tolist())}
            if all(np.any(f[: most - reach] < TAIL_F[-1]) for f in tables.values()):
                break
            most *= 2
        final = np.zeros((2, most + 1))
        for e, table in tables.items():
            final[int(e)] = table
            size = min(sol.final.shape[1], table.size)
            residual = max(residual, float(np.max(np.abs(sol.final[int(e), 1:size] - table[1:size]))))
    may, records = _all_bank_rules(r, scores, entered, max(target - int(s) for s in scores) + int(stable.max())
                                   + (most + target if r.end is End.LAST_ROUND else 0) + 2)
    wins = np.array([wins_at_once(r, x * STEP) is not None for x in range(target + records.shape[1] + 1)],
                    dtype=np.bool_)
    penalty = r.three_farkles // STEP
    penalty_seat = np.array([0 if (offset and not e) else max(0, s - penalty) + offset
                             for s, e in zip(scores.tolist(), entered.tolist(), strict=True)], dtype=np.int64)
    rooms = np.array([_room(r, s) for s in scores.tolist()], dtype=np.int64)
    for threshold in TAIL_F if r.end is End.LAST_ROUND else TAIL_F[:1]:
        # The first lead past which the last turn's chance is below the threshold: the bounds start there.
        cap = max((int(np.argmax(f < threshold)) for f in tables.values()), default=0)
        out = _two_player_backups(*rolls.args(), w, scores, entered, stable, rooms, offset, target, end, cap,
                                  penalty_seat, may, records, wins, final)
        found = max(residual, float(np.max(np.abs(out - w[..., None]))))
        gap = float(np.max(out[..., 1] - out[..., 0]))
        if gap <= max(1e-12, 0.01 * found):  # the bounds do not blur the residual: done
            break
    return found


def _all_bank_rules(rules: Rules, scores: IntArray, entered: BoolArray, top: int) -> tuple[BoolArray, BoolArray]:
    may = np.zeros((scores.size, top + 1, 4), dtype=np.bool_)
    records = np.zeros((scores.size, top + 1), dtype=np.bool_)
    for i, (s, e) in enumerate(zip(scores.tolist(), entered.tolist(), strict=True)):
        may[i], records[i] = _bank_rules(rules, s, e, top)
    return may, records


# -- the solo race ----------------------------------------------------------------------------------


def _check_race(sol: RaceSolution) -> float:
    r = sol.rules
    rolls = _Rolls(r)
    scores = [int(s) for s in sol.seats.score]
    entered = [bool(e) for e in sol.seats.entered]
    offset = 1 if r.entry else 0
    target = r.target // STEP
    turns = np.asarray(sol.turns, dtype=np.float64)
    residual = 0.0
    for s, (score, is_entered) in enumerate(zip(scores, entered, strict=True)):
        room = _room(r, score)
        top = room - 1 if room >= 0 else max(target - score, _stable(r, is_entered)) - 1
        may, records = _bank_rules(r, score, is_entered, top + 1)
        stay = -float(turns[s])
        bank = np.zeros(top + 1)
        for t in range(1, top + 1):
            if records[t] and score + t < target:
                bank[t] = -float(turns[score + t + offset])
        tail = _tail(*rolls.args(), may[top + 1], 0.0, stay, 0.0)
        value, _ = _sweep(*rolls.args(), top, may, bank, ~records[: top + 1], stay, stay, 0.0, room,
                          np.stack([tail, tail], axis=1))
        residual = max(residual, abs(turns[s] - (1.0 - value)))
    return residual
