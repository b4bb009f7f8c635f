"""The post-game review: every decision of one player weighed by the coach (skill), apart from what their rolls
gave or took (luck), replaying the game through the engine from its root."""

from __future__ import annotations

from dataclasses import dataclass

from hotdice.analysis.coach import Advice, Choice, advise, measure_for
from hotdice.game.engine import ROLL, Action, Game, Phase, Roll
from hotdice.game.record import Record, replay
from hotdice.game.refusals import expect, expect_whole
from hotdice.game.scoring import SetAside

__all__ = ["Luck", "Mistake", "Review", "full_review", "review"]


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
