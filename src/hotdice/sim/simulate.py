"""Computer players against each other, many games: win rates with confidence intervals.

Every game is fixed by the seed and its number, so the same seed gives the same report: game ``i`` rolls
:class:`~hotdice.game.dice.SeededDice` of ``"{seed}/game/{i}"``, and player ``j`` of game ``i`` draws from a
``random.Random`` seeded with ``"{seed}/game/{i}/player/{j}"``. Seats rotate: in game ``i`` the ``s``-th
seat (``s = 0`` plays first) holds player ``(i + s) % n``, so the figures per player do not depend on
who plays first.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hotdice.game.dice import SeededDice
from hotdice.game.engine import MAX_PLAYERS, Game
from hotdice.game.rules import Rules
from hotdice.game.told import Told
from hotdice.play.players import PlayerSpecError, make_player, play_game

if TYPE_CHECKING:
    from hotdice.sim.compiled import CompiledPlayer

__all__ = ["Z95", "PlayerResult", "Simulation", "SimulationError", "simulate", "wilson_interval"]

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal distribution


class SimulationError(ValueError):
    """A simulation that cannot be run as asked: unknown player, no games, too few or too many players; why, as
    data, in :attr:`told` (``str()`` is its English)."""

    def __init__(self, told: Told) -> None:
        super().__init__(str(told))
        self.told = told


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a win rate: unlike the normal approximation it stays inside [0, 1] and
    is honest near 0 and 1, where strong players sit. Shared wins may make ``wins`` fractional."""
    if games < 1:
        raise ValueError("a win rate needs at least one game")
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PlayerResult:
    """One player of the list, over every seat it sat in."""

    spec: str
    wins: Fraction  # a win shared by k players counts 1/k
    games: int
    total_score: int
    total_turns: int

    @property
    def win_rate(self) -> float:
        return float(self.wins / self.games)

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(float(self.wins), self.games)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games

    @property
    def mean_turns(self) -> float:
        return self.total_turns / self.games


@dataclass(frozen=True)
class Simulation:
    """What a run of games showed, per player of the list and per seat in the order of play."""

    rules: Rules
    seed: str
    games: int
    players: tuple[PlayerResult, ...]
    seat_wins: tuple[Fraction, ...]  # wins of whoever sat in seat s (s = 0 plays first)
    endings: dict[str, int]  # games per termination (target, exact, five-ones)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data; floats are rounded so that the same run always prints the same text."""
        return {
            "rules": str(self.rules),
            "seed": self.seed,
            "games": self.games,
            "players": [
                {
                    "player": number,
                    "spec": p.spec,
                    "wins": _round(float(p.wins)),
                    "win_rate": _round(p.win_rate),
                    "ci95": [_round(x) for x in p.ci95],
                    "mean_score": _round(p.mean_score),
                    "mean_turns": _round(p.mean_turns),
                }
                for number, p in enumerate(self.players, start=1)
            ],
            "seats": [
                {"seat": s, "wins": _round(float(w)), "win_rate": _round(float(w / self.games))}
                for s, w in enumerate(self.seat_wins, start=1)
            ],
            "endings": dict(sorted(self.endings.items())),
        }


def _round(x: float) -> float:
    return round(x, 6)


def simulate(
    rules: Rules,
    specs: Sequence[str],
    games: int,
    seed: str,
    on_game: Callable[[], None] | None = None,
    compiled: bool = True,
) -> Simulation:
    """Play ``games`` games between the players ``specs`` (see :func:`hotdice.play.players.make_player`).

    ``on_game`` is called after each game (a progress bar). Bad arguments raise SimulationError before
    any game is played. Two players among Hard, Medium, Easy and greedy play the same games compiled
    (:mod:`hotdice.sim.compiled`), unless ``compiled`` is False; the others play through the engine.
    """
    n = len(specs)
    if not 1 <= n <= MAX_PLAYERS:
        raise SimulationError(Told("sim_players", {"most": MAX_PLAYERS, "n": n}))
    if games < 1:
        raise SimulationError(Told("sim_games", {"games": games}))
    for spec in specs:
        try:
            make_player(spec, random.Random(0))
        except PlayerSpecError as exc:
            raise SimulationError(exc.told) from None
    from hotdice.sim.compiled import compiled_kinds  # numba loads only when a simulation runs

    kinds = compiled_kinds(rules, specs) if compiled else None
    if kinds is not None:
        return _simulate_compiled(rules, specs, kinds, games, seed, on_game)
    wins = [Fraction(0)] * n
    seat_wins = [Fraction(0)] * n
    scores = [0] * n
    turns = [0] * n
    endings: Counter[str] = Counter()
    for number in range(games):
        seats = [(number + s) % n for s in range(n)]  # seats[s]: the player of the list in seat s
        players = [make_player(specs[p], random.Random(f"{seed}/game/{number}/player/{p}")) for p in seats]
        game = Game(rules, players=tuple(specs[p] for p in seats))
        outcome = play_game(game, players, SeededDice(f"{seed}/game/{number}"))
        share = Fraction(1, len(outcome.winners))
        for s in outcome.winners:
            wins[seats[s]] += share
            seat_wins[s] += share
        for s, p in enumerate(seats):
            scores[p] += outcome.scores[s]
            turns[p] += game.turns_played[s]
        endings[outcome.termination.value] += 1
        if on_game is not None:
            on_game()
    results = tuple(PlayerResult(spec, wins[p], games, scores[p], turns[p]) for p, spec in enumerate(specs))
    return Simulation(rules, seed, games, results, tuple(seat_wins), dict(endings))


def _simulate_compiled(rules: Rules, specs: Sequence[str], kinds: Sequence[CompiledPlayer], games: int, seed: str,
                       on_game: Callable[[], None] | None) -> Simulation:
    """The same games as the loop of :func:`simulate`, played by :mod:`hotdice.sim.compiled`: the same
    dice and the same choices, so the same report, many times faster."""
    import numpy as np

    from hotdice.sim.compiled import ENDINGS, play_compiled

    n = len(specs)
    progress: Callable[[int], None] | None = None
    if on_game is not None:
        tick = on_game

        def progress(k: int) -> None:
            for _ in range(k):
                tick()

    played = play_compiled(rules, [[kinds[(g + s) % n] for s in range(n)] for g in range(games)],
                           [f"{seed}/game/{g}" for g in range(games)], progress)
    number = np.arange(games)
    sharing = played.winners.sum(axis=1)
    wins = [Fraction(0)] * n
    seat_wins = [Fraction(0)] * n
    scores = [0] * n
    turns = [0] * n
    for s in range(n):
        player = (number + s) % n  # who sat in seat s of each game
        for p in range(n):
            mine = player == p
            scores[p] += int(played.scores[mine, s].sum())
            turns[p] += int(played.turns[mine, s].sum())
            for k in range(1, n + 1):
                won = int((played.winners[:, s] & (sharing == k) & mine).sum())
                wins[p] += Fraction(won, k)
                seat_wins[s] += Fraction(won, k)
    endings = {ENDINGS[e].value: int(c) for e, c in zip(*np.unique(played.endings, return_counts=True), strict=True)}
    results = tuple(PlayerResult(spec, wins[p], games, scores[p], turns[p]) for p, spec in enumerate(specs))
    return Simulation(rules, seed, games, results, tuple(seat_wins), endings)
