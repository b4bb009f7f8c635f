"""Computer players, found by a spec string such as ``random``, ``greedy`` or ``greedy:400``.

A spec is a name, optionally followed by ``:`` and an argument. :data:`PLAYERS` is the registry: a new
kind of player is one more :class:`PlayerKind` in it. :func:`play_game` is the one game loop; :func:`choose`
is how a front end asks its computer for a move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hotdice.game.engine import Action, Game
from hotdice.game.told import Told
from hotdice.play.players.base import Player, play_game
from hotdice.play.players.simple import DEFAULT_THRESHOLD, GreedyPlayer, RandomPlayer

__all__ = [
    "LEVELS",
    "PLAYERS",
    "GreedyPlayer",
    "Player",
    "PlayerKind",
    "PlayerSpecError",
    "RandomPlayer",
    "choose",
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


class PlayerSpecError(ValueError):
    """A player spec that names no player, or with an argument it does not take; why, as data, in :attr:`told`
    (``str()`` is its English)."""

    def __init__(self, told: Told) -> None:
        super().__init__(str(told))
        self.told = told


def _random(rng: random.Random, arg: str | None) -> Player:
    if arg is not None:
        raise PlayerSpecError(Told("no_argument", {"spec": f"random:{arg}", "name": "random"}))
    return RandomPlayer(rng)


def _skilled(name: str) -> Callable[[random.Random, str | None], Player]:
    def build(rng: random.Random, arg: str | None) -> Player:
        if arg is not None:
            raise PlayerSpecError(Told("no_argument", {"spec": f"{name}:{arg}", "name": name}))
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
        raise PlayerSpecError(Told("bad_threshold", {"spec": f"greedy:{arg}"}))
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
    """The player a spec names, with ``rng`` as its only source of randomness; PlayerSpecError if there is none."""
    name, sep, arg = spec.strip().partition(":")
    kind = PLAYERS.get(name.strip().lower())
    if kind is None:
        players = ", ".join(PLAYERS)
        raise PlayerSpecError(Told("unknown_player", {"spec": spec, "players": players}) if spec.strip()
                            else Told("empty_player", {"players": players}))
    return kind.build(rng, arg.strip() if sep else None)


LEVELS = ("easy", "medium", "hard")  # the computer opponents a player chooses from, weakest first


def computer_spec(level: str) -> str:
    """The player spec of a computer level; ValueError for a level that is not one."""
    if level not in LEVELS or level not in PLAYERS:
        raise ValueError(f"unknown level '{level}': levels are {', '.join(LEVELS)}")
    return level


def choose(player: Player, game: Game) -> Action:
    """The move of ``player``; for a decision its solver cannot make (rules it does not cover: ValueError), the
    plain greedy player's, so that a computer at any table always moves."""
    try:
        return player.choose(game)
    except ValueError:
        return GreedyPlayer().choose(game)
