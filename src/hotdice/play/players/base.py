"""The player protocol and the one game loop that every front end and simulation uses.

As in OpenSpiel's bots, a player lives outside the game: it is given the game (which shows only what a
person at the table sees: scores, the roll on the table, the turn total, the legal actions — never the
dice source) and answers with an action. Its randomness comes from the ``random.Random`` it was built
with, so a seeded simulation replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hotdice.game.dice import DiceSource
from hotdice.game.engine import Action, Game, Outcome

__all__ = ["Player", "play_game"]


class Player(Protocol):
    """A computer (or any) player: chooses one of ``game.legal_actions()`` for ``game.to_act``."""

    @property
    def name(self) -> str:
        """The spec that makes this player again, e.g. ``greedy:300``."""
        ...

    def choose(self, game: Game) -> Action: ...


def play_game(game: Game, players: Sequence[Player], dice: DiceSource) -> Outcome:
    """Play ``game`` to its end: the player to act chooses, the engine applies, ``dice`` rolls.

    ``players[i]`` sits in seat ``i`` of the game. The engine refuses any illegal action, so a faulty
    player raises :class:`hotdice.game.engine.IllegalMoveError` rather than bending the rules.
    """
    if len(players) != len(game.players):
        raise ValueError(f"{len(players)} players for a game of {len(game.players)} seats")
    while game.outcome is None:
        seat = game.to_act
        if not isinstance(seat, int):  # CHANCE: a roll asked for before the game was handed over
            game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
            continue
        game.play(players[seat].choose(game), dice)
    return game.outcome
