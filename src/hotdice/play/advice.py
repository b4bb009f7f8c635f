"""The coach asked about a position set up by hand (``hotdice advise``): the dice given are rolled through the
engine, which says whether they ended the turn (a farkle, a bust, or the win); otherwise the player to act has
choices for the coach to weigh (:func:`hotdice.analysis.coach.advise`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hotdice.game.engine import CHANCE, ROLL, EventKind, Game

__all__ = ["Asked", "Ended", "NobodyToAct", "ask"]

Ended = Literal["win", "farkle", "bust"]


class NobodyToAct(Exception):
    """The position has nobody to advise: the game is over, or dice are being rolled (``rolling``) and none
    were given."""

    def __init__(self, *, rolling: bool) -> None:
        super().__init__("dice are being rolled" if rolling else "the game is over")
        self.rolling = rolling


@dataclass(frozen=True)
class Asked:
    """A position the coach is asked about, after the dice given were rolled."""

    game: Game  # the position after the dice given
    scores: tuple[int, ...]  # banked, before the dice given
    turn_total: int  # before the dice given
    dice_in_hand: int  # before the dice given
    roll: tuple[int, ...] | None  # the dice given, or the roll the position holds
    ended: Ended | None  # how the dice given ended the turn; None: the player to act decides


def ask(game: Game, roll: tuple[int, ...] | None) -> Asked:
    """Roll ``roll`` (if any) in ``game``, which it changes: its player to act, or its dice awaited, roll them.

    Raises :class:`NobodyToAct`, and the engine's refusal (IllegalMoveError, InvalidMoveError) of dice that
    cannot be rolled there.
    """
    if not isinstance(game.to_act, int) and (game.to_act is not CHANCE or roll is None):
        raise NobodyToAct(rolling=game.to_act is CHANCE)
    scores, turn_total, dice_in_hand, turn = game.scores, game.turn_total, game.dice_in_hand, game.turn
    if roll is not None:
        if game.to_act is not CHANCE:
            game.apply(ROLL)
        game.apply_roll(roll)
    ended: Ended | None = None
    if game.turn != turn:  # the roll ended the turn (alone at the table, the next one is yours again)
        ending: dict[EventKind, Ended] = {EventKind.FARKLE: "farkle", EventKind.BUST: "bust"}
        ended = "win" if game.is_over else next(ending[e.kind] for e in reversed(game.events) if e.kind in ending)
    return Asked(game, scores, turn_total, dice_in_hand, roll or game.roll, ended)
