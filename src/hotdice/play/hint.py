"""The coach's hint as typed facts, for every front end (issue 14): what the web answers and the terminal words.

Each choice is the engine's decision (the dice to set aside, then roll or bank) with its value and its cost in
the hint's measure; the measure and the solver's state are codes. No words: each front end words these facts
in its player's language. A hint never waits for a solve: expected points stand in while the game's table is
solved in the background (:func:`hotdice.analysis.coach.measure_now`), and ``solver`` says how far it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast

from hotdice.analysis.solver.background import Status
from hotdice.game.engine import Game

__all__ = ["ChoiceView", "Hint", "Measure", "hint_of"]

Measure = Literal["win", "points", "turns"]  # chance to win, expected points of the turn, expected turns to go


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """One legal decision, valued: ``set_aside`` the faces sorted ("155"; None: no roll on the table)."""

    set_aside: str | None
    then: Literal["roll", "bank"]
    value: float  # in the hint's measure
    cost: float  # how much worse than the best choice, in the same measure (0 for the best; never negative)


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's advice at action number ``n``: every choice, best first. ``solver``: how far the table of
    the game's own measure is (None: expected points need none); until it is ready, ``measure`` is points."""

    n: int
    measure: Measure
    solver: Status | None
    choices: tuple[ChoiceView, ...]


def hint_of(game: Game) -> Hint:
    """The hint for the player to act in ``game``, at once. Raises ValueError if nobody is to act."""
    from hotdice.analysis.coach import advise, measure_now  # numpy and the solver: only once a hint is asked

    measure, status = measure_now(game)
    advice = advise(game, measure)
    return Hint(
        n=len(game.history),
        measure=cast(Measure, advice.measure),
        solver=None if status is None else replace(status, progress=round(status.progress, 3)),
        choices=tuple(
            ChoiceView(
                None if c.set_aside is None else str(c.set_aside),
                cast(Literal["roll", "bank"], c.then),
                c.value,
                c.cost,
            )
            for c in advice.choices
        ),
    )
