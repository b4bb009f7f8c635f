"""The coach: every choice open to the player to act, valued exactly, best first, with what it costs.

The measure depends on the game:

- ``win``: two or more players — the chance of winning the game (a shared win counts one half), from the
  solved two-player table (:mod:`hotdice.players.solver`). With three or more players the strongest
  opponent (the leader among the others) stands for all of them: an approximation, documented as such.
- ``turns``: one player racing to the target — the expected number of turns still needed.
- ``points``: one player with a fixed number of turns (solo ten turns, daily, challenge), or a race under
  the three-farkle penalty (which the race solver does not cover) — the expected points of the turn.

Which dice may be set aside and when a bank is allowed are the engine's answers (``game.options()``,
``game.why_not_bank()``); the coach only weighs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.engine import BANK, ROLL, Action, Game, Phase, after_set_aside
from hotdice.expectation import turn_values
from hotdice.players.solver import UNIT, kernel, race_solution, two_player_solution
from hotdice.players.solver.two_player import TwoPlayerSolution
from hotdice.rules import End, HotDice
from hotdice.scoring import Option, SetAside

__all__ = ["Advice", "Choice", "advise", "measure_for"]

_TOL = 1e-12


@dataclass(frozen=True)
class Choice:
    """Set ``keep`` aside (None when the roll is already dealt with), then bank or roll."""

    keep: SetAside | None
    then: str  # "bank" or "roll"
    value: float  # chance to win, expected points or expected turns, as the advice's measure says
    cost: float = 0.0  # how much worse than the best choice, in the same measure (never negative)

    @property
    def action(self) -> Action:
        """The action to play now."""
        if self.keep is not None:
            return self.keep
        return BANK if self.then == "bank" else ROLL

    def __str__(self) -> str:
        return self.then if self.keep is None else f"set aside {self.keep}, then {self.then}"


@dataclass(frozen=True)
class Advice:
    measure: str  # "win", "points" or "turns"
    choices: tuple[Choice, ...]  # best first

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def describe(self, value: float) -> str:
        """A value in a player's words."""
        if self.measure == "win":
            return f"{100 * value:.1f} % to win"
        if self.measure == "turns":
            return f"{value:.2f} turns to go"
        return f"{value:.0f} points expected"


def measure_for(game: Game) -> str:
    """Which measure the coach and the Hard player use for this game (see the module docstring)."""
    if game.turn_limit is not None:
        return "points"
    if len(game.players) >= 2:
        return "win"
    return "points" if game.rules.three_farkles else "turns"


# A valuation of the states right after a set-aside: (turn total, dice in hand, bank blocked) ->
# (value of rolling on, value of banking or None). Values are "higher is better".
Valuation = Callable[[int, int, bool], tuple[float, float | None]]


def advise(game: Game, measure: str | None = None) -> Advice:
    """Every choice of the player to act, best first (by ``measure``, or the game's own: :func:`measure_for`).

    Raises ValueError if nobody is to act.
    """
    if game.to_act is None:
        raise ValueError("nobody is to act: the game is over or dice are being rolled")
    measure = measure or measure_for(game)
    if measure not in ("win", "points", "turns"):
        raise ValueError(f"unknown measure '{measure}': win, points or turns")
    value_of = _valuation(game, measure)
    r = game.rules
    choices: list[tuple[float, SetAside | None, str]] = []
    if game.phase is Phase.SET_ASIDE:
        for option in game.options():
            roll_v, bank_v = _after(value_of, game, option)
            if bank_v is not None and bank_v >= roll_v - _TOL:
                choices.append((bank_v, option.keep, "bank"))
            else:
                choices.append((roll_v, option.keep, "roll"))
    else:
        hot = game.hot_dice and r.hot_dice is HotDice.MUST
        roll_v, bank_v = value_of(game.turn_total, game.dice_to_roll, hot or game.must_validate)
        choices.append((roll_v, None, "roll"))
        if bank_v is not None and game.why_not_bank() is None:
            choices.append((bank_v, None, "bank"))
    choices.sort(key=lambda c: -c[0])
    best = choices[0][0]
    return Advice(measure, tuple(Choice(keep, then, _shown(measure, v), max(0.0, best - v))
                                 for v, keep, then in choices))


def _shown(measure: str, value: float) -> float:
    # Internally "turns" are handled as minus the turns left after this one.
    return 1.0 - value if measure == "turns" else value


def _after(value_of: Valuation, game: Game, option: Option) -> tuple[float, float | None]:
    dice, hot, validate = after_set_aside(game.rules, option)
    return value_of(game.turn_total + option.points, dice, validate or (hot and game.rules.hot_dice is HotDice.MUST))


def _valuation(game: Game, measure: str) -> Valuation:
    if measure == "points":
        return _points_valuation(game)
    if measure == "turns":
        sol = race_solution(game.rules)
        seat = sol.seats.seat_of(game.scores[0] // UNIT, game.entered[0])
        rv, bank_v, can, tmax = sol.turn_values(seat)
        return _array_valuation(game, rv, bank_v, can, tmax, win=0.0, cap=0.0)
    return _win_valuation(game)


def _points_valuation(game: Game) -> Valuation:
    tv = turn_values(game.rules)
    entered = game.entered[game.current]

    def value_of(total: int, dice: int, blocked: bool) -> tuple[float, float | None]:
        roll = tv.roll_value(total, dice, entered=entered)
        bank = None if blocked else tv.bank_value(total, entered=entered)
        return roll, bank

    return value_of


def _win_valuation(game: Game) -> Valuation:
    r = game.rules
    me = game.current
    others = [p for p in range(len(game.players)) if p != me]
    # The strongest opponent stands for all of them (exact with two players).
    opp = max(others, key=lambda p: (game.scores[p], -((p - me) % len(game.players))))
    sol = two_player_solution(r)
    st = sol.seats
    if game.last_round_by is not None:
        # My last turn: the chance of ending above the best score (a tie counts one half).
        need = (max(game.scores[p] for p in others) - game.scores[me]) // UNIT
        return _final_turn_valuation(game, sol, need)
    i = st.seat_of(game.scores[me] // UNIT, game.entered[me])
    j = st.seat_of(game.scores[opp] // UNIT, game.entered[opp])
    rv, bank_v, can, tmax = sol.turn_values(i, j, game.farkles_in_row[me], game.farkles_in_row[opp])
    cap = 1.0
    if r.end is End.LAST_ROUND:
        ej = 1 if game.entered[opp] else 0
        cap = 1.0 - sol.final[ej, min(st.target + sol.beyond - int(st.score[j]), sol.final.shape[1] - 1)]
    return _array_valuation(game, rv, bank_v, can, tmax, win=1.0, cap=cap)


def _final_turn_valuation(game: Game, sol: TwoPlayerSolution, need: int) -> Valuation:
    st = sol.seats
    me = game.current
    seat = st.seat_of(min(game.scores[me] // UNIT, st.target - 1), game.entered[me])
    tmax = min(max(need, 0) + 40, st.max_total)
    bank_v = np.zeros(tmax + 1)
    can = st.may_bank[seat, : tmax + 1].copy()
    for t in range(1, tmax + 1):
        if st.records[seat, t]:
            bank_v[t] = 1.0 if t > need else (0.5 if t == need else 0.0)
    tb = sol.table
    rv = np.zeros((tmax + 1, tb.dice + 1))
    rs = np.zeros((2, tmax + 1, tb.dice + 1))
    kernel.turn_sweep(tmax, tb.dice, bank_v, np.zeros((2, tmax + 1)), can, 1.0, 0.0, 0.0, 1.0, False,
                      tb.group_start, tb.group_p, tb.group_win, tb.opt_start, tb.opt_points, tb.opt_next,
                      tb.opt_blocked, rv, rs)
    return _array_valuation(game, rv, bank_v, can, tmax, win=1.0, cap=1.0)


def _array_valuation(game: Game, rv: npt.NDArray[np.float64], bank_v: npt.NDArray[np.float64],
                     can: npt.NDArray[np.bool_], tmax: int, *, win: float, cap: float) -> Valuation:
    exact = game.rules.end is End.EXACT

    def value_of(total: int, dice: int, blocked: bool) -> tuple[float, float | None]:
        t = total // UNIT
        if exact and t == tmax and game.turn_limit is None:
            return win, None  # the exact target is reached: the game is won at once
        if t > tmax:
            return cap, None
        bank = None if blocked or not can[t] else float(bank_v[t])
        return float(rv[t, dice]), bank

    return value_of
