"""Computer players, found by a spec string such as ``random``, ``greedy`` or ``greedy:400``.

A spec is a name, optionally followed by ``:`` and an argument. :data:`PLAYERS` is the registry: a new
kind of player is one more :class:`PlayerKind` in it. :func:`play_game` is the one game loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hotdice.play.players.base import Player, play_game
from hotdice.play.players.simple import DEFAULT_THRESHOLD, GreedyPlayer, RandomPlayer

__all__ = [
    "LEVELS",
    "PLAYERS",
    "GreedyPlayer",
    "Player",
    "PlayerKind",
    "RandomPlayer",
    "computer_spec",
    "make_player",
    "play_game",
]


@dataclass(frozen=True)
class PlayerKind:
    """One name of the registry: what it plays, and how to build it from the spec's argument (or None)."""

    name: str
    help: str
    build: Callable[[random.Random, str | None], Player]


def _random(rng: random.Random, arg: str | None) -> Player:
    if arg is not None:
        raise ValueError(f"player 'random:{arg}': random takes no argument")
    return RandomPlayer(rng)


def _skilled(name: str) -> Callable[[random.Random, str | None], Player]:
    def build(rng: random.Random, arg: str | None) -> Player:
        if arg is not None:
            raise ValueError(f"player '{name}:{arg}': {name} takes no argument")
        from hotdice.play.players import skilled  # the coach and the solver load only when a game needs them

        kinds: dict[str, Callable[[random.Random], Player]] = {
            "easy": skilled.EasyPlayer, "medium": skilled.MediumPlayer, "hard": skilled.HardPlayer
        }
        return kinds[name](rng)

    return build


def _greedy(rng: random.Random, arg: str | None) -> Player:
    if arg is None:
        return GreedyPlayer()
    if not (arg.isascii() and arg.isdigit()):
        raise ValueError(f"player 'greedy:{arg}': the bank threshold must be a whole number of points, 0 or more")
    return GreedyPlayer(int(arg))


PLAYERS: dict[str, PlayerKind] = {
    kind.name: kind
    for kind in (
        PlayerKind("random", "any legal action, uniformly", _random),
        PlayerKind(
            "greedy",
            f"best set-aside, banks at the first chance with at least N points (greedy:N, default {DEFAULT_THRESHOLD})",
            _greedy,
        ),
        PlayerKind("easy", "a cautious beginner: keeps every scoring die, banks early", _skilled("easy")),
        PlayerKind("medium", "maximises the expected points of each turn", _skilled("medium")),
        PlayerKind("hard", "optimal: the best chance to win (solved game)", _skilled("hard")),
    )
}


def make_player(spec: str, rng: random.Random) -> Player:
    """The player a spec names, with ``rng`` as its only source of randomness; ValueError if there is none."""
    name, sep, arg = spec.strip().partition(":")
    kind = PLAYERS.get(name.strip().lower())
    if kind is None:
        what = f"unknown player '{spec}'" if spec.strip() else "a player spec is empty"
        raise ValueError(f"{what}; players are: {', '.join(PLAYERS)}")
    return kind.build(rng, arg.strip() if sep else None)


LEVELS = ("easy", "medium", "hard")  # the computer opponents a player chooses from, weakest first


def computer_spec(level: str) -> str:
    """The player spec of a computer level; ValueError for a level that is not one."""
    if level not in LEVELS or level not in PLAYERS:
        raise ValueError(f"unknown level '{level}': levels are {', '.join(LEVELS)}")
    return level
