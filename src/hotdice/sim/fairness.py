"""How fair the dice are, measured: faces drawn as games draw them, and Pearson's chi-square test.

Used by the test suite and ``bench/bench_fairness.py`` on a million faces of :class:`~hotdice.game.dice.SeededDice`
and :class:`~hotdice.game.dice.SecureDice`. Two tests per source: the six faces, and the 36 ordered pairs of
neighbouring dice of a roll (dice 1-2, 3-4, 5-6 of each six-dice roll: pairs that share no die, so the
test's chi-square law holds exactly), which would catch dice that lean on the die before them.

The p-value is computed here, without scipy: for ``k`` degrees of freedom it is Q(k/2, x/2), the regularized
upper incomplete gamma function, which has a closed form for every whole ``k``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.game.dice import DiceSource

__all__ = ["Fit", "chi_square_p", "draw", "face_fit", "pair_fit"]

ROLL = 6  # dice per roll drawn: the most any preset rolls


@dataclass(frozen=True)
class Fit:
    """One chi-square test: the counts, the statistic, its degrees of freedom and its p-value."""

    counts: tuple[int, ...]
    statistic: float
    df: int
    p: float


def draw(dice: DiceSource, faces: int) -> npt.NDArray[np.int8]:
    """``faces`` faces from ``dice`` (a multiple of 6), as rolls of six dice: turn ``i // 8``, roll ``i % 8``
    for the i-th roll, as many turns and rolls within a turn as a long game reaches."""
    if faces % ROLL:
        raise ValueError(f"draw a multiple of {ROLL} faces, not {faces}")
    rolls = [dice.roll(ROLL, i // 8, i % 8) for i in range(faces // ROLL)]
    return np.array(rolls, dtype=np.int8)


def face_fit(rolls: npt.NDArray[np.int8]) -> Fit:
    """Chi-square test of the faces 1..6 against 1/6 each."""
    return _fit(np.bincount(rolls.ravel() - 1, minlength=6))


def pair_fit(rolls: npt.NDArray[np.int8]) -> Fit:
    """Chi-square test of the ordered pairs (die 2j+1, die 2j+2) of each roll against 1/36 each."""
    first, second = rolls[:, 0::2].ravel() - 1, rolls[:, 1::2].ravel() - 1
    return _fit(np.bincount(first.astype(np.int64) * 6 + second, minlength=36))


def _fit(counts: npt.NDArray[np.int64]) -> Fit:
    if counts.size < 2 or counts.sum() == 0:
        raise ValueError("a chi-square test needs at least two cells and one observation")
    expected = counts.sum() / counts.size
    statistic = float(((counts - expected) ** 2).sum() / expected)
    df = counts.size - 1
    return Fit(tuple(int(c) for c in counts), statistic, df, chi_square_p(statistic, df))


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` (whole, >= 1) degrees of freedom.

    Q(m, y) = e^-y * sum_{j<m} y^j / j! for even df = 2m; for odd df = 2m + 1,
    Q(m + 1/2, y) = erfc(sqrt y) + e^-y * sum_{j=1..m} y^(j - 1/2) / Gamma(j + 1/2).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if statistic <= 0:
        return 1.0
    y = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= y / j
            total += term
        return min(1.0, math.exp(-y) * total)
    term, total = math.sqrt(y) / math.gamma(1.5), 0.0  # the j = 1 term
    for j in range(1, df // 2 + 1):
        total += term
        term *= y / (j + 0.5)
    return min(1.0, math.erfc(math.sqrt(y)) + math.exp(-y) * total)
