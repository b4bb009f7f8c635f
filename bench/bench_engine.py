"""Engine speed: complete games per second between two greedy players, per preset, on one core.

Run: ``python bench/bench_engine.py [--games N] [--batch-games N] [--profile-games N]``

For each preset in ``hotdice.variants.VARIANTS``, games of ``greedy`` against ``greedy`` (best of 3 runs):

- engine: ``play_game`` with ``SeededDice`` per game, as ``hotdice simulate`` plays them;
- engine, quick dice: the same with dice from ``random.Random`` (below), to show what the HMAC dice cost;
- batch, seeded: ``players.batch.play_greedy_batch`` on the same ``SeededDice`` — its results must equal
  the engine's game for game, or the script stops;
- batch, numpy: ``play_greedy_batch`` with ``NumpyDice`` (fresh fair dice from numpy), many games at once.

Then cProfile of the engine path on farkle: the ten functions with the most own time.
Aim (issue 3): over 2,000 farkle games/s through the engine on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from hotdice.dice import DiceSource, SeededDice
from hotdice.engine import Game, Outcome
from hotdice.players import GreedyPlayer, play_game
from hotdice.players.batch import BatchOutcome, NumpyDice, SourceDice, play_greedy_batch
from hotdice.rules import Rules
from hotdice.variants import VARIANTS

REPEATS = 3
AIM = 2_000


class QuickDice:
    """Dice from ``random.Random``: no HMAC, so the engine's own cost shows."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(n))


def engine_games(rules: Rules, dice: Sequence[DiceSource]) -> list[Outcome]:
    outcomes = []
    for source in dice:
        game = Game(rules, players=("a", "b"))
        outcomes.append(play_game(game, [GreedyPlayer(), GreedyPlayer()], source))
    return outcomes


def best_of(work: Callable[[], object]) -> tuple[float, object]:
    """Shortest wall time of REPEATS runs of ``work`` and the result of the last one."""
    times, result = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="engine games per preset and run")
    parser.add_argument("--batch-games", type=int, default=100_000, help="games of the numpy batch per run")
    parser.add_argument("--profile-games", type=int, default=300, help="farkle games under cProfile")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {cpu_model()}, one core; greedy vs greedy, best of {REPEATS}")
    print(
        f"{'preset':<10} {'turns/game':>10} {'engine':>10} {'quick dice':>11} "
        f"{'batch seeded':>13} {'batch numpy':>12}   (games/s)"
    )
    for variant in VARIANTS:
        print(row(variant.name, variant.rules, args.games, args.batch_games))
    profile(args.profile_games)


def row(name: str, rules: Rules, games: int, batch_games: int) -> str:
    """One preset's line of the table: mean turns per game, then games/s four ways."""
    seeds = [f"bench/{name}/{i}" for i in range(games)]
    greedy = np.full((games, 2), 300)
    engine_s, outcomes = best_of(lambda: engine_games(rules, [SeededDice(s) for s in seeds]))
    quick_s, _ = best_of(lambda: engine_games(rules, [QuickDice(s) for s in seeds]))
    seeded_s, batch = best_of(lambda: play_greedy_batch(rules, greedy, SourceDice([SeededDice(s) for s in seeds])))
    assert isinstance(outcomes, list) and isinstance(batch, BatchOutcome)
    for g, outcome in enumerate(outcomes):
        if tuple(batch.scores[g]) != outcome.scores or tuple(np.flatnonzero(batch.winners[g])) != outcome.winners:
            raise SystemExit(f"{name}: batch and engine disagree on game {g}")
    many = np.full((batch_games, 2), 300)
    numpy_s, _ = best_of(lambda: play_greedy_batch(rules, many, NumpyDice(np.random.default_rng(20_260_101))))
    turns = float(batch.turns.sum()) / games
    return (
        f"{name:<10} {turns:>10.1f} {games / engine_s:>10,.0f} {games / quick_s:>11,.0f} "
        f"{games / seeded_s:>13,.0f} {batch_games / numpy_s:>12,.0f}"
    )


def profile(games: int) -> None:
    """Where the engine path spends its time in farkle games: the top ten functions by own time."""
    rules = Rules.parse("farkle")
    dice = [SeededDice(f"profile/{i}") for i in range(games)]
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    engine_games(rules, dice)
    profiler.disable()
    took = time.perf_counter() - start
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("tottime").print_stats(10)
    print(f"\ncProfile, {games} farkle games ({games / took:,.0f} games/s under the profiler):")
    lines = text.getvalue().splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    for line in lines[first:]:
        if line.strip():
            print(line.replace(str(Path.cwd()) + "/", ""))


if __name__ == "__main__":
    main()
