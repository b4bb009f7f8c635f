"""Calibration of the computer players, and what Hard costs.

Run: ``python bench/bench_players.py [--rules farkle --rules 5000 ...] [--games 4000] [--workers 2] [--speed]
[--three N] [--no-matrix]`` (default: every preset).

- Matrix: for each preset, Hard against Medium, Medium against Easy and Hard against Easy, as ``hotdice
  simulate`` plays them (seats rotate, a shared win counts one half, 95 % Wilson intervals). The games are
  split between worker processes; chunk ``k`` of a pair uses the seed ``calibration/<preset>/<pair>/<k>``,
  so a run is reproducible for a given number of workers and games.
- ``--speed``: the time of one Hard decision (in Hard-against-Hard games), and such games through the
  engine on one core, extrapolated to 100,000 games on every core; the engine's own cost (greedy against
  greedy); and the same Hard games when each turn's swept arrays are kept for reuse (checked move for move
  against the plain run).
- ``--three N``: N three-player games of Hard against two Medium players (seats rotate): Hard plays with
  the coach's approximation (the leader among the others stands for all of them).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from multiprocessing import get_context

from hotdice.analysis.solver import two_player_solution
from hotdice.analysis.solver.two_player import TwoPlayerSolution
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.rules import Rules
from hotdice.game.variants import VARIANTS
from hotdice.play.players import make_player
from hotdice.sim.simulate import simulate, wilson_interval

PAIRS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"))


def _chunk(rules: str, specs: tuple[str, ...], games: int, seed: str) -> tuple[list[Fraction], float]:
    """Wins of each player of ``specs`` over ``games`` games, and the seconds they took."""
    started = time.perf_counter()
    report = simulate(Rules.parse(rules), list(specs), games, seed)
    return [p.wins for p in report.players], time.perf_counter() - started


def play(pool: ProcessPoolExecutor, workers: int, rules: str, specs: tuple[str, ...], games: int,
         tag: str) -> tuple[list[Fraction], float]:
    """Wins of each player over ``games`` games split between the workers, and the CPU seconds spent."""
    sizes = [games // workers + (k < games % workers) for k in range(workers)]
    futures = [pool.submit(_chunk, rules, specs, n, f"{tag}/{k}") for k, n in enumerate(sizes) if n]
    wins = [Fraction(0)] * len(specs)
    cpu = 0.0
    for f in futures:
        part, seconds = f.result()
        wins = [a + b for a, b in zip(wins, part, strict=True)]
        cpu += seconds
    return wins, cpu


def _interval(wins: Fraction, games: int) -> str:
    low, high = wilson_interval(float(wins), games)
    return f"{100 * float(wins) / games:.1f} % ({100 * low:.1f}–{100 * high:.1f})"


def matrix(pool: ProcessPoolExecutor, workers: int, presets: list[str], games: int) -> None:
    print("| preset | pair | games | first's win rate (95 % CI) | second's win rate (95 % CI) | apart? | "
          "CPU s |")
    print("| --- | --- | ---: | --- | --- | --- | ---: |")
    for preset in presets:
        for specs in PAIRS:
            wins, cpu = play(pool, workers, preset, specs, games, f"calibration/{preset}/{'-'.join(specs)}")
            low_a, high_a = wilson_interval(float(wins[0]), games)
            low_b, high_b = wilson_interval(float(wins[1]), games)
            apart = "yes" if low_a > high_b or low_b > high_a else "no"
            print(f"| {preset} | {specs[0]} – {specs[1]} | {games} | {_interval(wins[0], games)} | "
                  f"{_interval(wins[1], games)} | {apart} | {cpu:.0f} |", flush=True)


def _games(rules: Rules, specs: tuple[str, str], games: int, timings: list[float] | None = None) -> list[list[str]]:
    """Play ``games`` seeded games through the engine; the histories, and each decision's time if asked."""
    histories = []
    for number in range(games):
        game = Game(rules, players=specs)
        players = [make_player(spec, random.Random(f"{number}/{k}")) for k, spec in enumerate(specs)]
        dice = SeededDice(f"speed/{number}")
        while game.outcome is None:
            seat = game.to_act
            if not isinstance(seat, int):  # CHANCE
                game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
                continue
            t = time.perf_counter()
            action = players[seat].choose(game)
            if timings is not None:
                timings.append(time.perf_counter() - t)
            game.play(action, dice)
        histories.append(game.history)
    return histories


def _cached_turn_values() -> None:
    """Keep each turn's swept arrays (per seats and farkle counts): the decisions of a turn, and of later
    games through the same scores, reuse them. The same numbers, so the same play."""
    plain = TwoPlayerSolution.turn_values
    memo: dict[tuple[int, int, int, int, int], object] = {}

    def turn_values(self: TwoPlayerSolution, mover: int, opponent: int, fm: int = 0, fo: int = 0) -> object:
        key = (id(self), mover, opponent, fm, fo)
        if key not in memo:
            memo[key] = plain(self, mover, opponent, fm, fo)
        return memo[key]

    TwoPlayerSolution.turn_values = turn_values  # type: ignore[assignment,method-assign]


def speed(preset: str, games: int) -> None:
    rules = Rules.parse(preset)
    two_player_solution(rules)  # solved or read from the cache before timing
    _games(rules, ("hard", "hard"), 1)  # compiled kernels loaded
    cores = os.cpu_count() or 1
    timings: list[float] = []
    started = time.perf_counter()
    plain = _games(rules, ("hard", "hard"), games, timings)
    per_game = (time.perf_counter() - started) / games
    print(f"{preset}: Hard against Hard through the engine, one core: {per_game * 1000:.1f} ms a game, "
          f"{len(timings) / games:.0f} decisions a game; 100,000 games on {cores} cores: about "
          f"{100_000 * per_game / cores / 60:.0f} min")
    print(f"  a Hard decision: median {1000 * statistics.median(timings):.2f} ms, "
          f"95th percentile {1000 * sorted(timings)[int(0.95 * len(timings))]:.2f} ms, "
          f"max {1000 * max(timings):.2f} ms")
    started = time.perf_counter()
    _games(rules, ("greedy", "greedy"), games)
    floor = (time.perf_counter() - started) / games
    print(f"  the engine alone (greedy against greedy): {floor * 1000:.1f} ms a game")
    _cached_turn_values()
    started = time.perf_counter()
    cached = _games(rules, ("hard", "hard"), games)
    fast = (time.perf_counter() - started) / games
    assert cached == plain, "cached turn arrays changed the play"
    print(f"  with each turn's arrays kept (same games, move for move): {fast * 1000:.1f} ms a game; "
          f"100,000 games on {cores} cores: about {100_000 * fast / cores / 60:.1f} min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="rules to play (repeat; default: every preset)")
    parser.add_argument("--games", type=int, default=4000, help="games per pair and preset")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--speed", action="store_true", help="time Hard's decisions and games")
    parser.add_argument("--speed-games", type=int, default=50)
    parser.add_argument("--three", type=int, default=0, help="three-player games of Hard against two Medium")
    parser.add_argument("--no-matrix", action="store_true")
    args = parser.parse_args()
    presets = args.rules or [v.name for v in VARIANTS]
    print(f"{time.strftime('%Y-%m-%d')} · {platform.machine()}, {os.cpu_count()} cores · Python "
          f"{platform.python_version()} · load {os.getloadavg()[0]:.1f}")
    for preset in presets:
        two_player_solution(Rules.parse(preset))  # solved (or read) once, before the workers fork
    with ProcessPoolExecutor(args.workers, mp_context=get_context("fork")) as pool:
        if not args.no_matrix:
            matrix(pool, args.workers, presets, args.games)
        if args.three:
            print("\n| preset | games | hard (95 % CI) | medium, medium (95 % CI) | fair share | CPU s |")
            print("| --- | ---: | --- | --- | --- | ---: |")
            for preset in presets:
                specs = ("hard", "medium", "medium")
                wins, cpu = play(pool, args.workers, preset, specs, args.three, f"three/{preset}")
                print(f"| {preset} | {args.three} | {_interval(wins[0], args.three)} | "
                      f"{_interval(wins[1], args.three)}, {_interval(wins[2], args.three)} | 33.3 % | {cpu:.0f} |",
                      flush=True)
    if args.speed:
        for preset in presets:
            speed(preset, args.speed_games)


if __name__ == "__main__":
    main()
