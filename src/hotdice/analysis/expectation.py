"""Exact expected points of the rest of a turn, playing to bank as many points as possible this turn.

This is the solo view: the opponents, the banked score and the target play no part, so the end rule
(``exact`` and its bust), the 4900 rule, the instant win of five 1s (they count for their points) and the
penalty for three farkles in a row are left out. What remains is the turn itself: a state is (turn total,
dice in hand, hot dice, entered, must validate); a roll of ``n`` dice farkles (the turn total is lost) or
the player picks the best of its legal set-asides; in between, the player banks or rolls where the rules
allow banking, which is asked of the engine itself (:func:`hotdice.game.engine.bank_refusal`).

Turn totals only grow (every set-aside scores at least 50), so the values come from one backward sweep
over the turn total, from a cap down to 0. The cap is derived, not guessed: above a total ``C``, play is
"bank whenever allowed", and a roll of ``n`` dice is worth the straight line ``alpha[n] * t + beta[n]``
(``alpha`` is the chance of surviving to a state that may bank, ``beta`` the points gained on the way,
both with the best set-asides for large totals: most survival first, then most points). ``C`` is the
smallest multiple of 50 above which

- in every roll, the set-aside chosen for large totals is the best one for every ``t >= C`` (where two
  lines cross, ``C`` is past the crossing), and
- banking is worth at least rolling: ``t >= alpha[n] * t + beta[n]`` for every ``n``.

These lines then satisfy the Bellman equation for every ``t >= C``. That equation has one solution that
grows at most linearly with ``t`` (every roll farkles with some probability ``p > 0`` and adds at most a
bounded number of points, so two such solutions differ by at most ``(1 - p) ** k`` times a linear bound
after ``k`` rolls, for every ``k``), and the optimal value grows at most linearly (it is at most ``t``
plus ``max mean roll / p``). So the lines are the optimal values above ``C``, and the sweep below ``C``
is exact up to floating-point rounding.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.game.dice import rolls_with_probability
from hotdice.game.engine import after_set_aside, bank_records, bank_refusal, offered
from hotdice.game.rules import Rules
from hotdice.game.scoring import Option

__all__ = ["TurnValues", "bank_points", "may_bank", "turn_values"]

STEP = 50  # every score is a multiple of 50
_TOL = 1e-9


def may_bank(
    rules: Rules, turn_total: int, *, entered: bool, hot_dice: bool = False, must_validate: bool = False
) -> bool:
    """Whether a deciding player may bank: the engine's own rule (:func:`hotdice.game.engine.bank_refusal`).

    Solo view: the 4900 rule, which depends on the banked score and the target, is left out.
    """
    refusal = bank_refusal(
        _solo(rules), score=0, turn_total=turn_total, entered=entered, hot_dice=hot_dice, must_validate=must_validate
    )
    return refusal is None


def bank_points(rules: Rules, turn_total: int, *, entered: bool) -> int:
    """Points a bank adds to the score: nothing when it stops below the entry (below_entry=lost)."""
    return turn_total if bank_records(rules, entered=entered, turn_total=turn_total) else 0


@functools.lru_cache(maxsize=64)
def _solo(rules: Rules) -> Rules:
    return rules.replace(rule_4900=False) if rules.rule_4900 else rules


def _column(dice: int, hot: bool, validate: bool) -> int:
    """Column of a deciding state (dice in hand, hot dice, must validate) in the value tables."""
    return ((dice - 1) * 2 + hot) * 2 + validate


@dataclass(frozen=True)
class _Rolls:
    """Every roll of 1..N dice and its legal set-asides, flattened for numpy."""

    roll_dice: npt.NDArray[np.int64]  # dice of each roll
    roll_prob: npt.NDArray[np.float64]
    roll_start: npt.NDArray[np.int64]  # first entry of each roll in the option arrays
    dice_start: npt.NDArray[np.int64]  # first roll of each number of dice
    opt_steps: npt.NDArray[np.int64]  # points of each set-aside / 50 (a farkle: one entry of 0)
    opt_column: npt.NDArray[np.int64]  # state after it (a farkle: the zero column)
    opt_roll: npt.NDArray[np.int64]  # roll index of each entry


def _rolls(rules: Rules) -> _Rolls:
    zero = _column(rules.dice, True, True) + 1
    roll_dice: list[int] = []
    roll_prob: list[float] = []
    roll_start: list[int] = []
    dice_start: list[int] = []
    steps: list[int] = []
    columns: list[int] = []
    owner: list[int] = []
    for n in range(1, rules.dice + 1):
        dice_start.append(len(roll_dice))
        for roll, p in rolls_with_probability(n):
            options = offered(rules, roll)
            roll_start.append(len(steps))
            after = [(o.points // STEP, _column(*after_set_aside(rules, o))) for o in options] or [(0, zero)]
            steps.extend(step for step, _ in after)
            columns.extend(column for _, column in after)
            owner.extend([len(roll_dice)] * len(after))
            roll_dice.append(n)
            roll_prob.append(float(p))

    def ints(values: list[int]) -> npt.NDArray[np.int64]:
        return np.array(values, dtype=np.int64)

    return _Rolls(
        ints(roll_dice),
        np.array(roll_prob),
        ints(roll_start),
        ints(dice_start),
        ints(steps),
        ints(columns),
        ints(owner),
    )


def _large_total_lines(rules: Rules, rolls: _Rolls) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int]:
    """``alpha[n], beta[n]`` of rolling ``n`` dice at large totals, and the cap ``C`` (see the module doc).

    Policy iteration on the lexicographic objective (survival first, then points); the states that may
    not bank at large totals are those that must roll hot dice or validate.
    """
    n_dice = rules.dice
    n_columns = _column(n_dice, True, True) + 1
    columns = np.arange(n_columns + 1)  # the last one is the zero column of a farkle
    col_dice = np.minimum(columns // 4, n_dice - 1)  # dice in hand - 1
    is_zero = columns == n_columns
    large = max(rules.entry, rules.min_bank, STEP)  # any total from which only the flags decide
    is_forced = np.array(
        [
            not may_bank(rules, large, entered=True, hot_dice=bool(c // 2 % 2), must_validate=bool(c % 2))
            for c in range(n_columns)
        ]
        + [False]
    )
    alpha = np.zeros(n_dice)
    beta = np.zeros(n_dice)
    points = rolls.opt_steps * float(STEP)
    nxt = col_dice[rolls.opt_column]
    choice: npt.NDArray[np.int64] | None = None
    for _ in range(100):
        # Each entry as a line in the total before the roll: slope, intercept.
        slope = np.where(is_forced[rolls.opt_column], alpha[nxt], 1.0)
        slope[is_zero[rolls.opt_column]] = 0.0
        icpt = np.where(is_forced[rolls.opt_column], alpha[nxt] * points + beta[nxt], points)
        icpt[is_zero[rolls.opt_column]] = 0.0
        new = _lexmax(rolls, slope, icpt, choice)
        if choice is not None and np.array_equal(new, choice):
            break
        choice = new
        # Evaluate the policy: alpha = P alpha + a, beta = P beta + b.
        chosen_forced = is_forced[rolls.opt_column[choice]]
        p = rolls.roll_prob
        row = rolls.roll_dice - 1
        transition = np.zeros((n_dice, n_dice))
        np.add.at(transition, (row[chosen_forced], nxt[choice][chosen_forced]), p[chosen_forced])
        bankable = ~chosen_forced & ~is_zero[rolls.opt_column[choice]]
        a = np.bincount(row[bankable], weights=p[bankable], minlength=n_dice)
        alpha = np.asarray(np.linalg.solve(np.eye(n_dice) - transition, a), dtype=np.float64)
        b = np.bincount(row[bankable], weights=(p * points[choice])[bankable], minlength=n_dice)
        b += np.bincount(
            row[chosen_forced],
            weights=(p * alpha[nxt[choice]] * points[choice])[chosen_forced],
            minlength=n_dice,
        )
        beta = np.asarray(np.linalg.solve(np.eye(n_dice) - transition, b), dtype=np.float64)
    else:  # pragma: no cover - policy iteration ends after a few rounds
        raise RuntimeError("policy iteration for large turn totals did not settle")
    assert choice is not None
    # Past which total does the chosen set-aside of every roll stay the best one?
    best_slope = slope[choice][rolls.opt_roll]
    best_icpt = icpt[choice][rolls.opt_roll]
    lower = slope < best_slope - _TOL
    crossing = np.max((icpt - best_icpt)[lower] / (best_slope - slope)[lower], initial=0.0)
    if np.any(alpha >= 1.0):  # pragma: no cover - every number of dice can farkle under valid rules
        raise RuntimeError("a roll that never farkles: no total makes banking the better choice")
    bank_better = float(np.max(beta / (1.0 - alpha)))
    needed = max(float(rules.entry), float(rules.min_bank), crossing, bank_better) + 1e-6
    return alpha, beta, STEP * math.ceil(needed / STEP)


def _lexmax(
    rolls: _Rolls, slope: npt.NDArray[np.float64], icpt: npt.NDArray[np.float64], previous: npt.NDArray[np.int64] | None
) -> npt.NDArray[np.int64]:
    """Per roll, the entry with the largest (slope, intercept); the previous choice wins near-ties."""
    out = np.empty(len(rolls.roll_start), dtype=np.int64)
    ends = [*rolls.roll_start[1:].tolist(), len(slope)]
    for r, (lo, hi) in enumerate(zip(rolls.roll_start.tolist(), ends, strict=True)):
        best = lo if previous is None else int(previous[r])
        for i in range(lo, hi):
            ds = slope[i] - slope[best]
            if ds > _TOL or (abs(ds) <= _TOL and icpt[i] > icpt[best] + _TOL):
                best = i
        out[r] = best
    return out


class TurnValues:
    """Expected points banked by the end of the turn from any state, under optimal play for this turn.

    Turn totals are multiples of 50. ``entered`` is whether the player has already banked the entry.
    ``cap`` only raises the total the sweep starts from (the tests check that this changes nothing).
    """

    def __init__(self, rules: Rules, cap: int | None = None) -> None:
        self.rules = rules
        self._rolls = _rolls(rules)
        self.alpha, self.beta, least_cap = _large_total_lines(rules, self._rolls)
        self.cap = least_cap if cap is None else max(cap, least_cap)  # above it, bank whenever allowed
        self._entered = self._sweep(entered=True)
        self._not_entered = self._sweep(entered=False, above=self._entered) if rules.entry else self._entered

    # -- the sweep ------------------------------------------------------------------------------

    def _sweep(
        self, entered: bool, above: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Values of every deciding state by total / 50 (rows) and state column (the last column is 0),
        and the values of rolling 1..N dice by total / 50 below the cap."""
        rolls = self._rolls
        n_dice = self.rules.dice
        top = self.cap // STEP
        flags = [(hot, validate) for hot in (False, True) for validate in (False, True)]
        if above is None:
            rows = top + int(rolls.opt_steps.max()) + 1
            table = np.zeros((rows, _column(n_dice, True, True) + 2))
            for k in range(top, rows):
                table[k, :-1] = self._tail(k * STEP)
            roll_table = np.zeros((top, n_dice))
            start = top
        else:  # not entered: from the entry up, the state is the same as entered
            table, roll_table = above[0].copy(), above[1].copy()
            start = self.rules.entry // STEP
        dice_col = np.arange(table.shape[1] - 1) // 4  # dice in hand - 1 of each column
        for k in range(start - 1, -1, -1):
            t = k * STEP
            values = table[k + rolls.opt_steps, rolls.opt_column]
            best = np.maximum.reduceat(values, rolls.roll_start)
            roll_table[k] = np.add.reduceat(best * rolls.roll_prob, rolls.dice_start)
            row = roll_table[k][dice_col]
            for hot, validate in flags:
                if may_bank(self.rules, t, entered=entered, hot_dice=hot, must_validate=validate):
                    cols = slice(_column(1, hot, validate), None, 4)
                    row[cols] = np.maximum(row[cols], bank_points(self.rules, t, entered=entered))
            table[k, :-1] = row
        return table, roll_table

    def _tail(self, t: int) -> npt.NDArray[np.float64]:
        """Values of every state column at a total ``t >= cap``: bank where allowed, else roll on."""
        out = np.empty(_column(self.rules.dice, True, True) + 1)
        for col in range(len(out)):
            dice, hot, validate = col // 4 + 1, (col // 2) % 2 == 1, col % 2 == 1
            if may_bank(self.rules, t, entered=True, hot_dice=hot, must_validate=validate):
                out[col] = t
            else:
                out[col] = self.alpha[dice - 1] * t + self.beta[dice - 1]
        return out

    # -- questions ------------------------------------------------------------------------------

    def _check(self, turn_total: int, dice: int, hot_dice: bool = False) -> None:
        if turn_total < 0 or turn_total % STEP:
            raise ValueError(f"a turn total is a multiple of {STEP} from 0 up, not {turn_total}")
        if not 1 <= dice <= self.rules.dice:
            raise ValueError(f"dice in hand are 1 to {self.rules.dice}, not {dice}")
        if hot_dice and dice != self.rules.dice:
            raise ValueError(f"hot dice put all {self.rules.dice} dice back in hand, not {dice}")

    def value(
        self, turn_total: int, dice: int, *, entered: bool = True, hot_dice: bool = False, must_validate: bool = False
    ) -> float:
        """Expected points banked from a state where the player decides to roll or bank."""
        self._check(turn_total, dice, hot_dice)
        if turn_total >= self.cap:
            return float(self._tail(turn_total)[_column(dice, hot_dice, must_validate)])
        table = (self._entered if entered else self._not_entered)[0]
        return float(table[turn_total // STEP, _column(dice, hot_dice, must_validate)])

    def roll_value(self, turn_total: int, dice: int, *, entered: bool = True) -> float:
        """Expected points banked if the player rolls ``dice`` dice now and plays on optimally."""
        self._check(turn_total, dice)
        if turn_total >= self.cap:
            return float(self.alpha[dice - 1] * turn_total + self.beta[dice - 1])
        return float((self._entered if entered else self._not_entered)[1][turn_total // STEP, dice - 1])

    def bank_value(
        self, turn_total: int, *, entered: bool = True, hot_dice: bool = False, must_validate: bool = False
    ) -> float | None:
        """Points a bank would add now, or None where the rules do not allow banking."""
        if not may_bank(self.rules, turn_total, entered=entered, hot_dice=hot_dice, must_validate=must_validate):
            return None
        return float(bank_points(self.rules, turn_total, entered=entered))

    def should_roll(
        self, turn_total: int, dice: int, *, entered: bool = True, hot_dice: bool = False, must_validate: bool = False
    ) -> bool:
        """Roll or bank? Roll when banking is not allowed or rolling is worth strictly more."""
        bank = self.bank_value(turn_total, entered=entered, hot_dice=hot_dice, must_validate=must_validate)
        return bank is None or self.roll_value(turn_total, dice, entered=entered) > bank + _TOL

    def option_value(self, option: Option, turn_total: int, *, entered: bool = True) -> float:
        """Expected points banked after setting ``option`` aside from a roll at ``turn_total``."""
        dice, hot, validate = after_set_aside(self.rules, option)
        return self.value(turn_total + option.points, dice, entered=entered, hot_dice=hot, must_validate=validate)

    def best_set_aside(self, roll: Iterable[int], turn_total: int, *, entered: bool = True) -> Option | None:
        """The set-aside of ``roll`` worth the most (the first of equals, best points first); None on a farkle."""
        best: Option | None = None
        best_value = -1.0
        for option in offered(self.rules, tuple(roll)):
            v = self.option_value(option, turn_total, entered=entered)
            if v > best_value + _TOL:
                best, best_value = option, v
        return best

    def bank_from(self, dice: int) -> int:
        """The smallest turn total from which banking, once entered, is at least as good as rolling ``dice``
        dice at every total above it (rolling may still be better at some lower totals)."""
        rolls = [t for t in range(STEP, self.cap + STEP, STEP) if self.should_roll(t, dice, entered=True)]
        return rolls[-1] + STEP if rolls else STEP

    def turn_value(self, *, entered: bool = True) -> float:
        """Expected points of a whole turn, from rolling all the dice with a turn total of 0."""
        return self.value(0, self.rules.dice, entered=entered)


def turn_values(rules: Rules) -> TurnValues:
    """The turn values of ``rules``, computed once: many requests asking at once wait for the one computing
    them (a fraction of a second of the GIL each), rather than all computing them together."""
    with _computing:
        return _turn_values(rules)


_computing = threading.Lock()


@functools.lru_cache(maxsize=32)
def _turn_values(rules: Rules) -> TurnValues:
    return TurnValues(rules)
