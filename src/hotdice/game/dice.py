"""Where dice come from. The engine never calls a global random: a source is injected.

- :class:`SecureDice` for live games: the operating system's secure generator.
- :class:`SeededDice` for daily games, friend challenges and tests: roll ``k`` of turn ``t`` draws its dice
  from one stream fixed by (seed, t, k), so that everyone sees the same first roll of each turn and
  players who set aside the same dice see the same rolls after it (RULES.md, "same dice for everyone").
- :class:`FixedDice` replays a list of rolls (tests, typed-in dice, replays of unseeded records).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import math
import os
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Protocol, runtime_checkable

__all__ = [
    "DiceSource", "FixedDice", "OutOfDice", "SecureDice", "SeededDice", "rolls_with_probability", "seeded_stream",
]


@runtime_checkable
class DiceSource(Protocol):
    """Gives the faces of roll number ``roll`` (0-based) of turn number ``turn`` (0-based) of a game."""

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]: ...


class SecureDice:
    """Fair dice from the operating system's secure generator (``os.urandom``, what ``secrets`` reads), for
    live games. As in the seeded stream, a byte below 252 gives the face ``byte % 6 + 1`` and the others are
    skipped: every face has probability exactly 1/6. One read per roll, not one per die (seven times faster)."""

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        faces: list[int] = []
        while len(faces) < n:
            faces += [byte % 6 + 1 for byte in os.urandom(n + 2) if byte < 252]
        return tuple(faces[:n])


def seeded_stream(seed: bytes, turn: int, roll: int) -> Iterator[int]:
    """The endless stream of faces for (seed, turn, roll).

    Block ``i`` of the stream is HMAC-SHA256(key=seed, message="hotdice/{turn}/{roll}/{i}"); each byte
    below 252 gives the face ``byte % 6 + 1`` and bytes 252..255 are skipped, so every face has
    probability exactly 1/6 (no modulo bias).
    """
    for block in itertools.count():
        yield from _block(seed, turn, roll, block)


def _block(seed: bytes, turn: int, roll: int, block: int) -> list[int]:
    """The faces of one block of the (seed, turn, roll) stream."""
    digest = hmac.new(seed, f"hotdice/{turn}/{roll}/{block}".encode(), hashlib.sha256).digest()
    return [byte % 6 + 1 for byte in digest if byte < 252]


class SeededDice:
    """Dice fixed by a seed: rolling ``n`` dice takes the first ``n`` faces of the (seed, turn, roll) stream."""

    def __init__(self, seed: bytes | str) -> None:
        self.seed = seed.encode() if isinstance(seed, str) else bytes(seed)

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        # One block almost always holds enough faces (32 bytes, each kept with probability 252/256).
        faces = _block(self.seed, turn, roll, 0)
        if len(faces) < n:
            faces = list(itertools.islice(seeded_stream(self.seed, turn, roll), n))
        return tuple(faces[:n])


class OutOfDice(LookupError):
    """A :class:`FixedDice` was asked for more rolls than it holds, or for a different number of dice."""


class FixedDice:
    """Hands out given rolls in order; each must have exactly the number of dice asked for."""

    def __init__(self, rolls: Iterable[Iterable[int]]) -> None:
        self._rolls = [tuple(r) for r in rolls]
        self._next = 0

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        if self._next >= len(self._rolls):
            raise OutOfDice(f"no roll left for turn {turn}, roll {roll} ({n} dice)")
        dice = self._rolls[self._next]
        if len(dice) != n:
            raise OutOfDice(f"the next roll {dice} has {len(dice)} dice, but {n} are rolled")
        self._next += 1
        return dice

    @property
    def remaining(self) -> int:
        return len(self._rolls) - self._next


@functools.lru_cache(maxsize=16)
def rolls_with_probability(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every distinct roll of ``n`` dice (sorted faces) with its exact probability: the chance outcomes of a roll."""
    out = []
    total = 6**n
    for roll in itertools.combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for face in range(1, 7):
            ways //= math.factorial(roll.count(face))
        out.append((roll, Fraction(ways, total)))
    return tuple(out)
