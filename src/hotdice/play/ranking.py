"""Ranking: the results of one mode, best first (a race by fewest turns, any other mode by highest score), and
what each turn added, for results compared turn by turn (the same dice each turn in a challenge)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hotdice.game.engine import EventKind, Game
from hotdice.play.modes import Mode, Result

__all__ = ["Place", "Ranked", "compare", "standing", "turn_points"]


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


@dataclass(frozen=True, slots=True)
class Place:
    """A seat's place in :func:`standing`: equal scores share a rank (1, 1, 3, ...)."""

    rank: int
    seat: int
    score: int


def standing(game: Game) -> tuple[Place, ...]:
    """The seats of one game by their scores, highest first, seat order between equals, who share their rank (as
    tied winners share the win): the final standing once the game is over."""
    order = sorted(range(len(game.scores)), key=lambda seat: -game.scores[seat])
    places: list[Place] = []
    for place, seat in enumerate(order, start=1):
        tied = bool(places) and places[-1].score == game.scores[seat]
        places.append(Place(places[-1].rank if tied else place, seat, game.scores[seat]))
    return tuple(places)


def turn_points(game: Game, seat: int = 0) -> tuple[int, ...]:
    """What each turn ``seat`` has finished changed its score by, in order: a bank's points, 0 for a farkle or
    a bust, less than 0 for the three-farkle penalty. They add up to its score."""
    turns: list[list[int]] = []  # per turn of the seat: its score at the start, and after its last event
    for event in game.events:
        if event.player != seat:
            continue
        if event.kind is EventKind.TURN:
            turns.append([event.scores[seat], event.scores[seat]])
        elif turns:
            turns[-1][1] = event.scores[seat]
    return tuple(end - start for start, end in turns[: game.turns_played[seat]])
