"""Exact odds of one roll, by enumerating every multiset of faces with its multinomial weight."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from hotdice.game.dice import rolls_with_probability
from hotdice.game.rules import Rules
from hotdice.game.scoring import scorer

__all__ = ["RollOdds", "odds", "roll_odds"]


@dataclass(frozen=True)
class RollOdds:
    """What one roll of ``dice`` dice brings under some rules, exactly."""

    dice: int
    farkle: Fraction
    wins_game: Fraction
    best: dict[int, Fraction]  # best points of the roll -> probability; 0 is a farkle
    mean: Fraction  # mean best points, a farkle counting 0


@functools.lru_cache(maxsize=256)
def roll_odds(rules: Rules, dice: int) -> RollOdds:
    """Exact odds of a roll of ``dice`` dice (1..rules.dice)."""
    if not 1 <= dice <= rules.dice:
        raise ValueError(f"a roll has 1 to {rules.dice} dice under these rules, not {dice}")
    s = scorer(rules)
    best: dict[int, Fraction] = {}
    wins = Fraction(0)
    for roll, p in rolls_with_probability(dice):
        option = s.best(roll)
        points = option.points if option else 0
        best[points] = best.get(points, Fraction(0)) + p
        if s.wins_game(roll):
            wins += p
    return RollOdds(
        dice=dice,
        farkle=best.get(0, Fraction(0)),
        wins_game=wins,
        best=dict(sorted(best.items())),
        mean=sum((pts * p for pts, p in best.items()), Fraction(0)),
    )


def odds(rules: Rules) -> tuple[RollOdds, ...]:
    """Odds of a roll of each number of dice, from 1 to ``rules.dice``."""
    return tuple(roll_odds(rules, n) for n in range(1, rules.dice + 1))
