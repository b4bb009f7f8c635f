"""``hotdice simulate`` with Hard: 100,000 two-player games, compiled, against the engine path.

Run: ``python bench/bench_simulate.py [--rules farkle] [--games 100000] [--engine-games 40]``.

For each pair (Hard against Hard, Hard against Medium) it times ``simulate`` as the CLI runs it (the
compiled path of :mod:`hotdice.sim.compiled`, every core), then plays the first ``--engine-games`` games
of the same run through the engine (``compiled=False``, one core, CPU time per game) and checks that they
give the same report (the same games, move for move). The solved table is read or solved before timing;
the numba kernels are loaded by a 20-game warm-up, timed apart. Wall and CPU seconds are printed with the
load average: other processes on the machine slow the wall time down.

``--before PYTHON`` (e.g. ``/work/main/.venv/bin/python``): instead, the same simulations timed side by side in
one run through another checkout's interpreter and this one (each in a fresh process, kernels warmed up
first, the two taking turns), for the pairs and rules of ``CASES``; both reports must be the same. Where the
other checkout plays through the engine (the three-farkle penalty before this was compiled), it plays
``--before-games`` games, and this one plays those too (to compare the reports) and ``--games``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

from hotdice.analysis.solver import two_player_solution
from hotdice.game.rules import Rules
from hotdice.sim.simulate import simulate

PAIRS = (("hard", "hard"), ("hard", "medium"))
CASES = (("farkle", "hard,hard"), ("farkle", "hard,medium"), ("farkle", "easy,greedy"),
         ("5000,three_farkles=1000", "hard,medium"), ("5000,three_farkles=1000", "hard,hard"),
         ("farkle,three_farkles=1000", "medium,easy"))
_CHILD = """
import json, sys, time
from hotdice.sim.compiled import compiled_kinds
from hotdice.game.rules import Rules
from hotdice.sim.simulate import simulate
rules, specs, games, seed = Rules.parse(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3]), sys.argv[4]
compiled = compiled_kinds(rules, specs) is not None
if games:
    simulate(rules, specs, 20, "warm-up")
wall, cpu = time.perf_counter(), time.process_time()
report = simulate(rules, specs, games, seed).to_json() if games else None
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "report": report,
                  "compiled": compiled}))
"""


def _timed(python: str, rules: str, specs: str, games: int, seed: str) -> dict[str, object]:
    """One simulation in a fresh process of ``python``: wall and CPU seconds (after a warm-up) and the report."""
    out = subprocess.run([python, "-c", _CHILD, rules, specs, str(games), seed], capture_output=True, text=True,
                         check=True, cwd="/")
    result: dict[str, object] = json.loads(out.stdout)
    return result


def side_by_side(before: str, games: int, before_games: int) -> None:
    """The table of ``--before``: games/s of the other checkout and of this one, on the same seeds."""
    print("| rules | pair | before: games | wall s | CPU s | CPU ms a game | after: games | wall s | CPU s | "
          "CPU ms a game | CPU speed-up | same report | load before → after |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for rules, specs in CASES:
        seed = f"bench/{specs}"
        load = os.getloadavg()[0]
        n_before = games if _timed(before, rules, specs, 0, seed)["compiled"] else before_games
        old = _timed(before, rules, specs, n_before, seed)
        new = _timed(sys.executable, rules, specs, games, seed)
        same = (new if n_before == games else _timed(sys.executable, rules, specs, n_before, seed))["report"]
        old_ms = 1000 * float(str(old["cpu"])) / n_before
        new_ms = 1000 * float(str(new["cpu"])) / games
        print(f"| {rules} | {specs.replace(',', ' – ')} | {n_before} | {float(str(old['wall'])):.1f} | "
              f"{float(str(old['cpu'])):.1f} | {old_ms:.2f} | {games} | {float(str(new['wall'])):.1f} | "
              f"{float(str(new['cpu'])):.1f} | {new_ms:.2f} | {old_ms / new_ms:.1f}× | "
              f"{'yes' if same == old['report'] else 'NO'} | {load:.1f} → {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="farkle")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--engine-games", type=int, default=40)
    parser.add_argument("--before", help="another checkout's Python: time both side by side")
    parser.add_argument("--before-games", type=int, default=200, help="games where --before plays the engine")
    args = parser.parse_args()
    if args.before:
        print(f"{time.strftime('%Y-%m-%d')} · {platform.machine()}, {os.cpu_count()} cores · Python "
              f"{platform.python_version()} · before: {args.before} · after: {sys.executable}")
        side_by_side(args.before, args.games, args.before_games)
        return
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
