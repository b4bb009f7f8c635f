"""What copying a game costs: ``Game.clone`` against a replay of its history (what the terminal did for a
hint), and the position written and read back (``Game.position`` / ``Game.from_position``).

Run: ``python bench/bench_state.py [--games N]``

Games of greedy against greedy under farkle, stopped halfway; for each, the best of 5 timings of each way to
copy it (each copy is checked equal to the game first).
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.record import record_of, replay
from hotdice.game.rules import Rules
from hotdice.play.players import make_player


def halfway(number: int) -> Game:
    """A greedy game stopped at half its history, replayed so that it is a plain game again."""
    rules = Rules.parse("farkle")
    game = Game(rules, ("a", "b"))
    players = [make_player("greedy", random.Random(f"{number}/{k}")) for k in range(2)]
    dice = SeededDice(f"state/{number}")
    while game.outcome is None:
        seat = game.to_act
        if not isinstance(seat, int):
            game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
            continue
        game.play(players[seat].choose(game), dice)
    again = Game(rules, ("a", "b"))
    for line in game.history[: len(game.history) // 2]:
        if line.startswith("dice "):
            again.apply_roll(int(d) for d in line[5:])
        else:
            again.apply(line)
    return again


def best(work: Callable[[Game], object], games: list[Game]) -> float:
    """Best of 5 runs: mean seconds per game."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for game in games:
            work(game)
        times.append((time.perf_counter() - start) / len(games))
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    games = [halfway(k) for k in range(args.games)]
    for game in games:
        assert game.clone().position() == replay(record_of(game)).position() == game.position()
    lines = sum(len(g.history) for g in games) / len(games)
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.games} farkle games stopped "
          f"halfway ({lines:.0f} history lines on average)")
    ways: list[tuple[str, Callable[[Game], object]]] = [
        ("replay of the record (before)", lambda g: replay(record_of(g))),
        ("Game.clone", Game.clone),
        ("position, then from_position", lambda g: Game.from_position(g.rules, g.position(), g.players)),
        ("position alone", Game.position),
    ]
    for name, work in ways:
        print(f"  {name:32} {best(work, games) * 1e6:9.1f} µs")


if __name__ == "__main__":
    main()
