"""Ranking: the results of one mode, best first (a race by fewest turns, any other mode by highest score)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hotdice.play.modes import Mode, Result

__all__ = ["Ranked", "compare"]


@dataclass(frozen=True)
class Ranked:
    """A place in :func:`compare`: equal results share a rank (1, 1, 3, ...)."""

    rank: int
    result: Result


def compare(results: Iterable[Result]) -> tuple[Ranked, ...]:
    """Rank results of one mode, best first: a race by fewest turns, any other mode by highest score; every
    unfinished result below every finished one.

    Ties on the main measure go to the other one (higher score in a race, fewer turns otherwise); results
    still equal share their rank.
    """
    found = list(results)
    modes = {r.mode for r in found}
    if len(modes) > 1:
        raise ValueError(f"results of different modes cannot be compared: {', '.join(sorted(modes))}")

    def measure(r: Result) -> tuple[bool, int, int]:
        return (not r.finished, *((r.turns, -r.score) if r.mode is Mode.RACE else (-r.score, r.turns)))

    found.sort(key=lambda r: (measure(r), r.name))
    ranked: list[Ranked] = []
    for place, result in enumerate(found, start=1):
        tied = bool(ranked) and measure(ranked[-1].result) == measure(result)
        ranked.append(Ranked(ranked[-1].rank if tied else place, result))
    return tuple(ranked)
