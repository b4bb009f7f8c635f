"""Exact odds against seed 003's table and against enumeration of every ordered roll."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from hotdice.analysis.odds import odds, roll_odds
from hotdice.game.variants import VARIANTS, find_variant
from tests.reference import legal_set_asides

FARKLE = find_variant("farkle").rules


def test_farkle_risk_table_of_seed_003() -> None:
    # Seed 003, "Le risque de Farkle": 6 dice 2.3 %, 5: 7.7 %, 4: 15.7 %, 3: 27.8 %, 2: 44.4 %, 1: 66.7 %.
    printed = {6: 2.3, 5: 7.7, 4: 15.7, 3: 27.8, 2: 44.4, 1: 66.7}
    for o in odds(FARKLE):
        assert round(100 * float(o.farkle), 1) == printed[o.dice]


def _plain_farkle(roll: tuple[int, ...]) -> bool:
    """Seed 003 in words: no 1, no 5, no three alike, no straight, no three pairs."""
    counts = [roll.count(f) for f in range(1, 7)]
    return (
        counts[0] == 0
        and counts[4] == 0
        and max(counts) < 3
        and sorted(roll) != [1, 2, 3, 4, 5, 6]
        and sorted(counts) != [0, 0, 0, 2, 2, 2]
    )


@pytest.mark.parametrize("n", range(1, 7))
def test_farkle_fraction_by_counting_every_ordered_roll(n: int) -> None:
    rolls = list(itertools.product(range(1, 7), repeat=n))
    expected = Fraction(sum(_plain_farkle(r) for r in rolls), len(rolls))
    assert roll_odds(FARKLE, n).farkle == expected


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_distribution_by_counting_every_ordered_roll(variant, n: int) -> None:  # type: ignore[no-untyped-def]
    r = variant.rules
    dist: dict[int, Fraction] = {}
    memo: dict[tuple[int, ...], int] = {}
    rolls = list(itertools.product(range(1, 7), repeat=n))
    for roll in rolls:
        key = tuple(sorted(roll))
        if key not in memo:
            memo[key] = max(legal_set_asides(key, r).values(), default=0)
        dist[memo[key]] = dist.get(memo[key], Fraction(0)) + Fraction(1, len(rolls))
    o = roll_odds(r, n)
    assert o.best == dict(sorted(dist.items()))
    assert o.mean == sum(p * pts for pts, p in dist.items())
    assert sum(o.best.values()) == 1


def test_five_1s_win_odds() -> None:
    assert roll_odds(find_variant("5000-fr").rules, 5).wins_game == Fraction(1, 6**5)
    assert roll_odds(find_variant("5000").rules, 5).wins_game == 0


def test_six_dice_mean_best_score_by_counting_multisets() -> None:
    # Independent weights: count the ordered rolls of each multiset directly.
    counts: dict[tuple[int, ...], int] = {}
    for roll in itertools.product(range(1, 7), repeat=6):
        key = tuple(sorted(roll))
        counts[key] = counts.get(key, 0) + 1
    mean = sum(Fraction(c, 6**6) * max(legal_set_asides(k, FARKLE).values(), default=0) for k, c in counts.items())
    assert roll_odds(FARKLE, 6).mean == mean


def test_bad_number_of_dice() -> None:
    with pytest.raises(ValueError, match="1 to 5 dice"):
        roll_odds(find_variant("5000").rules, 6)
