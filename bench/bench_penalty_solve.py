"""Two-player solve under the three-farkle penalty: wall and CPU time, passes, and the Bellman residual.

Run: ``python bench/bench_penalty_solve.py [--rules farkle,three_farkles=1000] [--no-check]``

Solves from scratch (the cache is not read), as Hard and the coach do on first use of such rules, then
reports how often the progress moved and the largest Bellman residual of the table from
``hotdice.analysis.solver.check`` (an independent re-sweep of every state with every legal set-aside).
Compare with the game without the penalty (``hotdice solve --rules farkle``: 14.6 s) and with the solver
before issue 4's speed-up (1,205 s wall, 8 passes, BENCHMARKS.md). Other work on the machine inflates wall
time: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from hotdice.analysis.solver.check import check
from hotdice.analysis.solver.two_player import solve_two_players
from hotdice.game.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="farkle,three_farkles=1000")
    parser.add_argument("--no-check", action="store_true", help="skip the Bellman residual (slow)")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"rules: {rules}")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    solve_two_players(rules.replace(target=1000))  # compile the kernels first: not part of the figure
    wall, cpu = time.perf_counter(), time.process_time()
    told: list[tuple[float, float]] = []  # (seconds, share) as the background solver would see them
    sol = solve_two_players(rules, progress=lambda share: told.append((time.perf_counter() - wall, share)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"solve: {wall:.1f} s wall, {cpu:.1f} s CPU, {sol.passes} passes, first player wins {sol.w[0, 0]:.7f}")
    gap = max(b[0] - a[0] for a, b in zip([(0.0, 0.0), *told], told, strict=False))
    print(f"progress: {len(told)} reports, the longest wait between two {gap:.1f} s")
    print(f"load average after the solve: {os.getloadavg()[0]:.1f}")
    if not args.no_check:
        started = time.perf_counter()
        residual = check(sol)
        print(f"largest Bellman residual: {residual:.1e} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
