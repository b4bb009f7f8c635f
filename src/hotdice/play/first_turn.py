"""A guided first turn (issue 15): one turn of the engine with fixed dice, chosen so that a newcomer meets each
step of the game once — a roll and what scores in it, a set-aside, the choice to roll or bank, hot dice, a farkle.
The steps are facts (kinds, dice, points, refusal codes); the front ends word them."""

from __future__ import annotations

from dataclasses import dataclass

from hotdice.game.engine import EventKind, Game
from hotdice.game.refusals import Refusal
from hotdice.game.rules import Rules
from hotdice.game.scoring import Combination, scorer

__all__ = ["GuidedStep", "guided_turn"]

# The rolls of the guided turn, each cut to the dice in hand: three 3s and a 1 (a 2 and a 6 score nothing);
# the dice left all score (hot dice); then nothing scores at all (a farkle).
ROLLS = ((1, 3, 3, 3, 2, 6), (5, 1), (2, 2, 3, 4, 6, 6))


@dataclass(frozen=True)
class GuidedStep:
    """One step of the guided turn, as the engine played it.

    ``kind`` is the engine's event: a roll (``dice`` rolled, ``combinations`` what its best set-aside is made
    of, empty on a farkle), a set-aside (``dice`` set aside for ``points``; ``bank`` says why banking would be
    refused now, None if it is allowed), or a farkle (``points``: the turn total lost)."""

    kind: EventKind
    dice: tuple[int, ...]
    points: int
    turn_total: int
    dice_in_hand: int
    hot_dice: bool = False
    combinations: tuple[Combination, ...] = ()
    bank: Refusal | None = None


def guided_turn(rules: Rules) -> tuple[GuidedStep, ...]:
    """The guided turn under ``rules``: roll, set aside the best, roll the rest, set aside (hot dice), farkle.

    Every rules value plays it: the first roll always leaves dice that score nothing, the dice left after it
    always all score, and the last roll never scores (its faces make no combination of any rules). The turn is
    played under a target of at least 10 000, so that a small exact target cannot bust it (a first turn's 550
    meets no target otherwise)."""
    game = Game(rules.replace(target=max(rules.target, 10_000)), ("you",))
    steps: list[GuidedStep] = []
    best = scorer(rules)
    for roll in ROLLS:
        game.apply("roll")
        dice = roll[: game.dice_in_hand]
        game.apply_roll(dice)
        if game.turns_played != (0,):  # a farkle: the turn is over
            lost = next(e.points for e in reversed(game.events) if e.kind is EventKind.FARKLE)
            steps.append(GuidedStep(EventKind.FARKLE, dice, lost, 0, rules.dice))
            break
        option = game.options()[0]
        combos = tuple(best.partition(option.set_aside))
        steps.append(
            GuidedStep(EventKind.ROLL, dice, option.points, game.turn_total, game.dice_in_hand, combinations=combos)
        )
        game.apply(option.set_aside)
        steps.append(
            GuidedStep(
                EventKind.SET_ASIDE,
                tuple(option.set_aside),
                option.points,
                game.turn_total,
                game.dice_in_hand,
                hot_dice=game.hot_dice,
                combinations=combos,
                bank=game.why_not_bank(),
            )
        )
    return tuple(steps)
