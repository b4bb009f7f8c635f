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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.analysis.expectation import turn_values
from hotdice.analysis.solver import UNIT, affordable, kernel, race_solution, two_player_solution
from hotdice.analysis.solver.background import SOLVER, Kind, Status
from hotdice.analysis.solver.two_player import TwoPlayerSolution
from hotdice.game.engine import (
    BANK,
    MAX_PLAYERS,
    ROLL,
    Action,
    Decision,
    Game,
    Phase,
    PositionError,
    Roll,
    after_set_aside,
    bank_records,
    bank_refusal,
    needs_validation,
    room_to_target,
)
from hotdice.game.record import Record, replay
from hotdice.game.refusals import Code, Refusal, Refused, expect, expect_choice, expect_whole
from hotdice.game.rules import MAX_TARGET, End, Rules
from hotdice.game.scoring import FACES, Option, SetAside

__all__ = [
    "Advice", "Choice", "Luck", "Mistake", "Review", "advise", "full_review", "measure_for", "measure_now", "position",
    "review", "table_for",
]

_TOL = 1e-12
MEASURES = ("win", "points", "turns")  # win probability, expected points, expected turns to the target


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


# -- a position described by its numbers (``hotdice advise``) -----------------------------------------

def position(rules: Rules, scores: Sequence[int], *, turn_total: int = 0, dice_in_hand: int | None = None) -> Game:
    """A game where player 0 is to act, set up by the engine from a position (:meth:`Game.from_position`).

    ``scores``: the banked scores, player 0 first, then the others in the order they play after. If any
    player has points, each has played one turn: a player with points banked them in it, a player with none
    farkled (so under the three-farkle penalty they have one farkle in a row). Player 0 has set aside
    ``turn_total`` so far, single 1s and 5s (and a triple where singles cannot make it), and holds
    ``dice_in_hand`` dice to roll (all of them after hot dice; under validate=yes a triple or full hand set
    aside last still awaits its validating roll, as it would at the table). A position no game can reach
    raises :class:`PositionError` saying which rule forbids it. Turn totals go up to the highest target any
    rules have (:data:`MAX_TARGET`): past it, banking has won under every rule set.
    """
    expect(rules, Rules, "rules", PositionError)
    expect(scores, (list, tuple), "scores", PositionError)
    if not 1 <= len(scores) <= MAX_PLAYERS:
        raise PositionError(Refusal(Code.PLAYER_COUNT, {"max": MAX_PLAYERS, "players": len(scores)}))
    for score in scores:
        expect(score, int, "a score", PositionError)
    expect_whole(turn_total, "turn_total", 0, MAX_TARGET, PositionError)
    if dice_in_hand is not None:
        expect(dice_in_hand, int, "dice_in_hand", PositionError)
    n_all = rules.dice
    dice_in_hand = n_all if dice_in_hand is None else dice_in_hand
    if not 1 <= dice_in_hand <= n_all:
        raise PositionError(Refusal(Code.POSITION_HAND, {"hand": dice_in_hand, "dice": n_all}))
    for field, points in [("SEATS", s) for s in scores] + [("TOTAL/HAND", turn_total)]:
        if points < 0 or points % UNIT:
            raise PositionError(Refusal(Code.POSITION_UNIT, {"field": field, "value": points, "unit": UNIT}))
    for seat, score in enumerate(scores):
        if score >= rules.target:
            raise PositionError(Refusal(Code.POSITION_PAST_TARGET, {"seat": seat, "score": score,
                                                                    "target": rules.target}))
    if turn_total == 0 and dice_in_hand != n_all:
        raise PositionError(Refusal(Code.POSITION_TURN_START))
    for seat, score in enumerate(scores):
        if not score:
            continue
        refusal = bank_refusal(rules, score=0, turn_total=score, entered=False, hot_dice=False, must_validate=False)
        if refusal is not None:
            raise PositionError(refusal)
        if not bank_records(rules, entered=False, turn_total=score):
            raise PositionError(Refusal(Code.POSITION_BELOW_ENTRY, {"seat": seat, "score": score,
                                                                    "entry": rules.entry}))
    room = room_to_target(rules, scores[0], turn_total)
    if room is not None and room <= 0:  # reaching an exact target wins at once: the turn is over
        raise PositionError(Refusal(Code.POSITION_TURN_TOTAL, {"target": rules.target}))
    plan = _plan(rules, turn_total, dice_in_hand) if turn_total else []
    # Under validate=yes the last set-aside, a triple or a full hand, awaits its validating roll.
    pending = bool(plan) and needs_validation(rules, Option(SetAside(*plan[-1]), 0, dice_in_hand % n_all))
    played = any(scores)
    seats = ",".join(f"{s}{'' if s or rules.entry == 0 else '~'}{'x1' if played and not s else ''}" for s in scores)
    names = ("you", *(f"opponent {k}" if len(scores) > 2 else "opponent" for k in range(1, len(scores))))
    text = f"{seats} 0 {turn_total}/{dice_in_hand} - {'v' if pending else '-'} - {len(scores) * played}.{len(plan)} -"
    return Game.from_position(rules, text, names)


def _plan(rules: Rules, points: int, dice_in_hand: int | None) -> list[tuple[int, ...]]:
    """Set-asides making ``points``, one per roll, that leave ``dice_in_hand`` in hand (None: ready to
    bank: no full hand to roll again, no triple to validate): single 1s and 5s, and where singles cannot
    make it, a triple at the start of a hand. Fewest dice first."""
    n_all = rules.dice
    steps = points // UNIT
    triples = sorted({(rules.triple(f) // UNIT, f) for f in FACES})
    for used in range(1, steps + 1):
        if dice_in_hand is not None and (n_all - used) % n_all != dice_in_hand % n_all:
            continue
        if dice_in_hand is None and used % n_all == 0:
            continue
        hands = (used - 1) // n_all + 1
        for k in range(min(hands, used // 3) + 1):
            for value, face in [(0, 0)] if k == 0 else triples:
                singles = used - 3 * k
                rest = steps - k * value
                if not singles <= rest <= 2 * singles:  # each single is a 5 (one step) or a 1 (two)
                    continue
                if k == hands and used - (hands - 1) * n_all < 3:
                    continue  # the last hand is too small for its triple
                if dice_in_hand is None and rules.validate and k == hands and used - (hands - 1) * n_all == 3:
                    continue  # the turn would end on a triple, still to be validated: no bank there
                ones = rest - singles
                faces = [1] * ones + [5] * (singles - ones)
                plan: list[tuple[int, ...]] = []
                for hand in range(hands):
                    size = min(n_all, used - hand * n_all)
                    if hand < k:
                        plan.append((face,) * 3)
                        size -= 3
                    plan += [(faces.pop(),) for _ in range(size)]
                return plan
    raise PositionError(Refusal(Code.POSITION_SET_ASIDE, {"total": points, "hand": dice_in_hand}))


# -- post-game review -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mistake:
    """One decision of the reviewed player and what it cost against the best choice (skill), in the
    advice's measure."""

    turn: int  # the game's turn number, from 1
    scores: tuple[int, ...]
    turn_total: int
    roll: tuple[int, ...] | None  # the dice on the table for a set-aside; None for roll-or-bank
    played: Choice
    best: Choice
    measure: str

    @property
    def cost(self) -> float:
        return self.played.cost

    def __str__(self) -> str:
        where = f"turn {self.turn}, scores {'-'.join(map(str, self.scores))}, turn total {self.turn_total}"
        dice = "" if self.roll is None else f", roll {' '.join(map(str, self.roll))}"
        return f"{where}{dice}: played {self.played}, best {self.best} (cost {self.cost:.4g})"


@dataclass(frozen=True)
class Luck:
    """One roll of the reviewed player: the value of rolling before it and the value it left, for them."""

    turn: int
    dice: tuple[int, ...]
    before: float
    after: float  # the best choice it leaves, the turn lost, or the game's result
    measure: str

    @property
    def luck(self) -> float:
        """Positive for good dice (fewer turns are better under the ``turns`` measure)."""
        return self.before - self.after if self.measure == "turns" else self.after - self.before


@dataclass(frozen=True)
class Review:
    """Every decision and roll of one player: skill (value lost by their choices) apart from luck (value
    the dice gave or took)."""

    decisions: tuple[Mistake, ...]  # in the order played
    rolls: tuple[Luck, ...]
    measure: str

    @property
    def skill(self) -> float:
        """Value lost against best play (0 for perfect play; never negative)."""
        return sum(d.cost for d in self.decisions)

    @property
    def luck(self) -> float:
        return sum(r.luck for r in self.rolls)

    def mistakes(self, tolerance: float = 1e-9) -> list[Mistake]:
        """The decisions that cost something, the costliest first."""
        return sorted((d for d in self.decisions if d.cost > tolerance), key=lambda d: -d.cost)


def review(record_or_game: Record | Game, player: int) -> list[Mistake]:
    """The decisions of ``player`` that cost the most, the costliest first (see :func:`full_review`)."""
    return full_review(record_or_game, player).mistakes()


def full_review(record_or_game: Record | Game, player: int) -> Review:
    """Replay the game through the engine from its root (a new game, or the position it was set up from) and
    weigh every decision and roll of ``player`` with the coach.

    A decision costs the best choice's value minus the value of the choice made (a set-aside is valued
    with the best bank-or-roll after it; that next decision is weighed on its own). The luck of a roll
    is the value after it (the best choice it leaves, or the turn lost, or the game's result) minus the
    value of rolling before it. Over one turn, the value it ends with minus the value it started with is
    the luck of its rolls less the cost of its decisions. With three or more players the values are the
    coach's approximation.
    """
    expect(record_or_game, (Record, Game), "record_or_game")
    game = record_or_game if isinstance(record_or_game, Game) else replay(record_or_game)
    expect_whole(player, "player", 0, len(game.players) - 1)
    again = game.root()
    measure = measure_for(again)
    decisions: list[Mistake] = []
    rolls: list[Luck] = []
    before: float | None = None  # value of the player's roll, while its dice are awaited
    for step in game.history:
        action = step.move
        if isinstance(action, Roll):
            turn = again.turn + 1
            again.apply_roll(action.dice)
            if before is not None:
                rolls.append(Luck(turn, action.dice, before, _value_now(again, player, measure), measure))
                before = None
            continue
        if again.to_act == player:
            advice = advise(again, measure)
            played = _played(advice, action)
            decisions.append(Mistake(again.turn + 1, again.scores, again.turn_total, again.roll, played,
                                     advice.best, measure))
            if action is ROLL:
                before = played.value
        again.apply(action)
    return Review(tuple(decisions), tuple(rolls), measure)


def _played(advice: Advice, action: Action) -> Choice:
    """The choice a played action made: a set-aside's best continuation, or the roll or bank itself."""
    if isinstance(action, SetAside):
        return next(c for c in advice.choices if c.set_aside == action)
    then = "roll" if action is ROLL else "bank"
    return next(c for c in advice.choices if c.set_aside is None and c.then == then)


def _value_now(game: Game, player: int, measure: str) -> float:
    """The value for ``player`` right after a roll: the best choice it leaves, or the game's result, or (the
    turn lost) what the next turn is worth to them."""
    if game.outcome is not None:
        if measure == "turns":
            return 1.0  # this turn was the last one
        if measure == "points":
            return 0.0  # nothing more is banked this turn (five 1s end the game without a bank)
        winners = game.outcome.winners
        return 1.0 / len(winners) if player in winners else 0.0
    if game.to_act == player and game.phase is Phase.SET_ASIDE:
        return advise(game, measure).best.value
    if measure == "points":
        return 0.0  # the turn's points are lost
    nxt = advise(game, measure).best.value
    if measure == "turns":
        return 1.0 + nxt  # this turn, then the next ones from the same score
    return nxt if game.to_act == player else 1.0 - nxt
