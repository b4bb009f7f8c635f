"""The coach: every choice open to the player to act, valued exactly, best first, with what it costs.

The measure depends on the game:

- ``win``: two or more players — the chance of winning the game (a shared win counts one half), from the
  solved two-player table (:mod:`hotdice.analysis.solver`). With three or more players the strongest
  opponent (the leader among the others) stands for all of them: an approximation, documented as such.
- ``turns``: one player racing to the target — the expected number of turns still needed.
- ``points``: one player with a fixed number of turns (solo ten turns, daily, challenge), a race under the
  three-farkle penalty (which the race solver does not cover), or rules whose table would take too long to
  solve (:func:`hotdice.analysis.solver.refusal`) — the expected points of the turn. A front end that must
  not wait also plays and advises in points while the table is being solved (:func:`measure_now`).

Which dice may be set aside and when a bank is allowed are the engine's answers (``game.options()``,
``game.why_not_bank()``); the coach only weighs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from hotdice.analysis.expectation import turn_values
from hotdice.analysis.solver import UNIT, affordable, kernel, race_solution, two_player_solution
from hotdice.analysis.solver.background import SOLVER, Kind, Status
from hotdice.analysis.solver.two_player import TwoPlayerSolution
from hotdice.game.engine import BANK, ROLL, Action, Decision, Game, Phase, after_set_aside
from hotdice.game.refusals import Code, Refusal, Refused, expect, expect_choice
from hotdice.game.rules import End
from hotdice.game.scoring import Option, SetAside

__all__ = ["Advice", "Choice", "advise", "measure_for", "measure_now", "table_for"]

_TOL = 1e-12
Measure = Literal["win", "points", "turns"]  # win probability, expected points, expected turns to the target
MEASURES: tuple[Measure, ...] = get_args(Measure)


@dataclass(frozen=True)
class Choice:
    """One of the engine's legal decisions, valued."""

    decision: Decision
    value: float  # chance to win, expected points or expected turns, as the advice's measure says
    cost: float = 0.0  # how much worse than the best choice, in the same measure (never negative)

    @property
    def set_aside(self) -> SetAside | None:
        """The dice to set aside (None when no roll is on the table)."""
        return self.decision.set_aside

    @property
    def then(self) -> str:
        """``roll`` or ``bank``."""
        return str(self.decision.then)

    @property
    def action(self) -> Action:
        """The action to play now."""
        return self.decision.set_aside if self.decision.set_aside is not None else self.decision.then

    def __str__(self) -> str:
        return str(self.decision)


@dataclass(frozen=True)
class Advice:
    measure: str  # "win", "points" or "turns"
    choices: tuple[Choice, ...]  # best first

    @property
    def best(self) -> Choice:
        return self.choices[0]


def measure_for(game: Game) -> str:
    """Which measure the coach and the Hard player use for this game (see the module docstring)."""
    if game.turn_limit is not None:
        return "points"
    if len(game.players) >= 2:
        # Where the table would take too long to solve (players.solver.refusal), the expected points stand in.
        return "win" if affordable(game.rules) else "points"
    return "points" if game.rules.three_farkles or not affordable(game.rules) else "turns"


def table_for(measure: str) -> Kind | None:
    """The solved table a measure reads (None: expected points need none)."""
    return "two" if measure == "win" else "race" if measure == "turns" else None


def measure_now(game: Game) -> tuple[str, Status | None]:
    """The game's measure if its table is at hand, else expected points while the background solver works it
    out (asked here): for a front end, which never waits for a solve. With the table's status (None if the
    measure needs no table)."""
    measure = measure_for(game)
    kind = table_for(measure)
    if kind is None:
        return measure, None
    status = SOLVER.request(kind, game.rules)
    return (measure if status.ready else "points"), status


# A valuation of the states right after a set-aside: (turn total, dice in hand, bank blocked) ->
# (value of rolling on, value of banking or None). Values are "higher is better".
Valuation = Callable[[int, int, bool], tuple[float, float | None]]


def advise(game: Game, measure: str | None = None) -> Advice:
    """Every choice of the player to act, best first (by ``measure``, or the game's own: :func:`measure_for`).

    Refused (game-over, rolling) if nobody is to act.
    """
    expect(game, Game, "game")
    if game.is_over:
        raise Refused(Refusal(Code.GAME_OVER))
    if not isinstance(game.to_act, int):
        raise Refused(Refusal(Code.ROLLING))
    if measure is not None:
        expect_choice(measure, MEASURES, "measure")
    measure = measure or measure_for(game)
    value_of = _valuation(game, measure)
    legal = game.legal_decisions()
    choices: list[tuple[float, Decision]] = []
    if game.phase is Phase.SET_ASIDE:
        for option in game.options():
            roll_v, bank_v = _after(value_of, game, option, Decision(option.set_aside, BANK) not in legal)
            if bank_v is not None and bank_v >= roll_v - _TOL:
                choices.append((bank_v, Decision(option.set_aside, BANK)))
            else:
                choices.append((roll_v, Decision(option.set_aside, ROLL)))
    else:
        roll_v, bank_v = value_of(game.turn_total, game.dice_in_hand, Decision(None, BANK) not in legal)
        if bank_v is not None:
            choices.append((bank_v, Decision(None, BANK)))  # first: of equal values, the sure one
        choices.append((roll_v, Decision(None, ROLL)))
    choices.sort(key=lambda c: -c[0])
    best = choices[0][0]
    return Advice(measure, tuple(Choice(decision, _shown(measure, v), max(0.0, best - v)) for v, decision in choices))


def _shown(measure: str, value: float) -> float:
    # Internally "turns" are handled as minus the turns left after this one.
    return 1.0 - value if measure == "turns" else value


def _after(value_of: Valuation, game: Game, option: Option, blocked: bool) -> tuple[float, float | None]:
    dice, _, _ = after_set_aside(game.rules, option)
    return value_of(game.turn_total + option.points, dice, blocked)


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
    rv = np.zeros((tmax + 2, tb.dice + 1))
    rs = np.zeros((2, tmax + 2, tb.dice + 1))
    kernel.turn_sweep(tmax, tb.dice, bank_v, np.zeros((2, tmax + 1)), can, 1.0, 0.0, 0.0, 1.0, False, tb.arrays,
                      tb.unbanded, 0, 0, rv, rs)
    return _array_valuation(game, rv, bank_v, can, tmax, win=1.0, cap=1.0)


def _array_valuation(game: Game, rv: npt.NDArray[np.float64], bank_v: npt.NDArray[np.float64],
                     can: npt.NDArray[np.bool_], tmax: int, *, win: float, cap: float) -> Valuation:
    exact = game.rules.end is End.EXACT

    def value_of(total: int, dice: int, blocked: bool) -> tuple[float, float | None]:
        t = total // UNIT
        if exact and t == tmax and game.turn_limit is None:
            return win, None  # the exact target is reached: the game is won at once
        if t > tmax:
            # Past the horizon every bank is allowed and worth ``cap``; rolling on is worth rv[tmax + 1].
            return float(rv[tmax + 1, dice]), None if blocked else cap
        bank = None if blocked or not can[t] else float(bank_v[t])
        return float(rv[t, dice]), bank

    return value_of
