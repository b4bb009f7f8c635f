"""``hotdice simulate`` with Hard: 100,000 two-player games, compiled, against the engine path.

Run: ``python bench/bench_simulate.py [--rules farkle] [--games 100000] [--engine-games 40]``.

For each pair (Hard against Hard, Hard against Medium) it times ``simulate`` as the CLI runs it (the
compiled path of :mod:`hotdice.players.compiled`, every core), then plays the first ``--engine-games`` games
of the same run through the engine (``compiled=False``, one core, CPU time per game) and checks that they
give the same report (the same games, move for move). The solved table is read or solved before timing;
the numba kernels are loaded by a 20-game warm-up, timed apart. Wall and CPU seconds are printed with the
load average: other processes on the machine slow the wall time down.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from hotdice.players.solver import two_player_solution
from hotdice.rules import Rules
from hotdice.simulate import simulate

PAIRS = (("hard", "hard"), ("hard", "medium"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="farkle")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--engine-games", type=int, default=40)
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    print(f"{time.strftime('%Y-%m-%d')} · {platform.machine()}, {os.cpu_count()} cores · Python "
          f"{platform.python_version()} · load {os.getloadavg()[0]:.1f} · rules {rules}")
    started = time.perf_counter()
    two_player_solution(rules)
    print(f"solved table at hand: {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    simulate(rules, ["hard", "medium"], 20, "warm-up")
    print(f"warm-up (numba kernels loaded or compiled), 20 games: {time.perf_counter() - started:.1f} s")
    print("\n| pair | games | compiled: wall s | CPU s | games/s | engine path: CPU ms a game | "
          "CPU speed-up | first listed's win rate (95 % CI) | seat 1's (plays first) | load before → after |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |")
    for specs in PAIRS:
        seed = f"bench/{'-'.join(specs)}"
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        report = simulate(rules, list(specs), args.games, seed)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = os.getloadavg()[0]
        n = args.engine_games
        engine = time.process_time()
        slow = simulate(rules, list(specs), n, seed, compiled=False)
        engine = (time.process_time() - engine) / n
        assert slow.to_json() == simulate(rules, list(specs), n, seed).to_json(), "compiled games differ"
        first = report.players[0]
        low, high = first.ci95
        print(f"| {specs[0]} – {specs[1]} | {args.games} | {wall:.1f} | {cpu:.1f} | {args.games / wall:.0f} | "
              f"{1000 * engine:.1f} | {engine * args.games / cpu:.0f}× | {100 * first.win_rate:.2f} % "
              f"({100 * low:.2f}–{100 * high:.2f}) | {100 * float(report.seat_wins[0]) / args.games:.2f} % | "
              f"{load:.1f} → {after:.1f} |", flush=True)


if __name__ == "__main__":
    main()
