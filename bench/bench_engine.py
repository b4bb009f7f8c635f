"""Engine speed: complete games per second between two greedy players, per preset (the engine on one core).

Run: ``python bench/bench_engine.py [--games N] [--compiled-games N] [--profile-games N]``

For each preset in ``hotdice.game.variants.VARIANTS``, games of ``greedy`` against ``greedy`` (best of 3 runs):

- engine: ``play_game`` with ``SeededDice`` per game, as ``hotdice simulate`` plays them;
- engine, quick dice: the same with dice from ``random.Random`` (below), to show what the HMAC dice cost;
- compiled: ``players.compiled.play_compiled`` on the same seeded dice — its results must equal the
  engine's game for game, or the script stops;
- compiled, many: ``play_compiled`` over ``--compiled-games`` games at once (every core: numba's threads).

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

from hotdice.game.dice import DiceSource, SeededDice
from hotdice.game.engine import Game, Outcome
from hotdice.game.rules import Rules
from hotdice.game.variants import VARIANTS
from hotdice.play.players import GreedyPlayer, play_game
from hotdice.sim.compiled import CompiledGames, compiled_kinds, play_compiled

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
    parser.add_argument("--compiled-games", type=int, default=100_000, help="compiled games at once per run")
    parser.add_argument("--profile-games", type=int, default=300, help="farkle games under cProfile")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {cpu_model()}, one core; greedy vs greedy, best of {REPEATS}")
    print(
        f"{'preset':<10} {'turns/game':>10} {'engine':>10} {'quick dice':>11} "
        f"{'compiled':>13} {'compiled many':>14}   (games/s)"
    )
    for variant in VARIANTS:
        print(row(variant.name, variant.rules, args.games, args.compiled_games))
    profile(args.profile_games)


def row(name: str, rules: Rules, games: int, compiled_games: int) -> str:
    """One preset's line of the table: mean turns per game, then games/s four ways."""
    seeds = [f"bench/{name}/{i}" for i in range(games)]
    greedy = compiled_kinds(rules, ["greedy", "greedy"])
    assert greedy is not None
    engine_s, outcomes = best_of(lambda: engine_games(rules, [SeededDice(s) for s in seeds]))
    quick_s, _ = best_of(lambda: engine_games(rules, [QuickDice(s) for s in seeds]))
    play_compiled(rules, [greedy], ["warm-up"])  # numba's kernels loaded
    seeded_s, played = best_of(lambda: play_compiled(rules, [greedy] * games, seeds))
    assert isinstance(outcomes, list) and isinstance(played, CompiledGames)
    for g, outcome in enumerate(outcomes):
        if tuple(played.scores[g]) != outcome.scores or tuple(np.flatnonzero(played.winners[g])) != outcome.winners:
            raise SystemExit(f"{name}: compiled and engine games disagree on game {g}")
    many = [f"bench/{name}/many/{i}" for i in range(compiled_games)]
    many_s, _ = best_of(lambda: play_compiled(rules, [greedy] * compiled_games, many))
    turns = float(played.turns.sum()) / games
    return (
        f"{name:<10} {turns:>10.1f} {games / engine_s:>10,.0f} {games / quick_s:>11,.0f} "
        f"{games / seeded_s:>13,.0f} {compiled_games / many_s:>14,.0f}"
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
