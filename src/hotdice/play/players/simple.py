"""Two yardstick players that need no solver: uniformly random, and greedy with a bank threshold."""

from __future__ import annotations

import random

from hotdice.game.engine import BANK, ROLL, Action, Game, bank_records

__all__ = ["DEFAULT_THRESHOLD", "GreedyPlayer", "RandomPlayer"]

DEFAULT_THRESHOLD = 300


class RandomPlayer:
    """Any legal action, uniformly: the floor every real player must beat."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class GreedyPlayer:
    """Sets aside the best set-aside, banks as soon as it may with at least ``threshold``, else rolls.

    The simplest sensible strategy, and a fast one: the yardstick of the benchmarks. It never makes a bank
    that would not be recorded (below the entry, where stopping there is allowed, as in ``5000``).
    """

    def __init__(self, threshold: int = DEFAULT_THRESHOLD) -> None:
        self.threshold = threshold

    @property
    def name(self) -> str:
        return "greedy" if self.threshold == DEFAULT_THRESHOLD else f"greedy:{self.threshold}"

    def choose(self, game: Game) -> Action:
        options = game.options()
        if options:
            return options[0].set_aside
        total = game.turn_total
        records = bank_records(game.rules, entered=game.entered[game.current], turn_total=total)
        if total >= self.threshold and records and game.why_not_bank() is None:
            return BANK
        return ROLL
