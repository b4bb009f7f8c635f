"""The three computer opponents of the game: Easy, Medium and Hard.

They see what a person at the table sees (the game: scores, turn, dice on the table) and ask the engine
what is legal; Medium and Hard weigh the choices with the coach's exact values.
"""

from __future__ import annotations

import random

from hotdice.analysis.coach import advise, measure_now
from hotdice.analysis.solver.background import Status
from hotdice.game.engine import BANK, ROLL, Action, Game, Phase
from hotdice.game.scoring import Option

__all__ = ["EasyPlayer", "HardPlayer", "MediumPlayer", "at_once", "pending"]


class EasyPlayer:
    """A cautious beginner: sets aside every die that scores, banks as soon as the turn feels worth it."""

    name = "easy"
    bank_at = 300  # banks once the turn total is this much...
    bank_with = 2  # ... or once this few dice are left to roll

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @staticmethod
    def preference(option: Option) -> tuple[int, int]:
        """Everything that scores: the most dice, then the most points (the first of equals)."""
        return len(option.set_aside), option.points

    def choose(self, game: Game) -> Action:
        if game.phase is Phase.SET_ASIDE:
            return max(game.options(), key=self.preference).set_aside
        if BANK in game.legal_actions() and (game.turn_total >= self.bank_at or game.dice_in_hand <= self.bank_with):
            return BANK
        return ROLL


class MediumPlayer:
    """A sound player: maximises the expected points of its turn under the rules in force."""

    name = "medium"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        return advise(game, "points").best.action


class HardPlayer:
    """Optimal: the best chance to win (two players), the fewest turns (solo race), the most points
    (a fixed number of turns); with three or more players, the documented approximation of the coach.

    ``wait=False`` (the front ends): a table not at hand is asked of the background solver, and until it is
    ready the move is the one of most expected points (:func:`hotdice.analysis.coach.measure_now`), unless the player
    chose that it be ``patient``: then the front end holds its move until the table is ready (:func:`pending`)."""

    name = "hard"

    def __init__(self, rng: random.Random, wait: bool = True) -> None:
        self.rng = rng
        self.wait = wait
        self.patient = False

    def choose(self, game: Game) -> Action:
        return advise(game, None if self.wait else measure_now(game)[0]).best.action


def at_once(player: object, patient: bool = False) -> None:
    """Make a Hard player a front end's: it never solves a table itself (see :class:`HardPlayer`);
    ``patient``: the player chose that it wait for its exact play rather than play expected points meanwhile."""
    if isinstance(player, HardPlayer):
        player.wait = False
        player.patient = patient


def pending(player: object, game: Game) -> Status | None:
    """The status of the table a patient Hard player waits for before its move, asked of the background solver
    (never solved here); None when it may move now: its table is ready or needs none, or the solve failed
    (then it plays expected points, as an impatient one does)."""
    if not isinstance(player, HardPlayer) or not player.patient:
        return None
    status = measure_now(game)[1]
    if status is None or status.state not in ("queued", "solving", "full"):
        return None
    return status
