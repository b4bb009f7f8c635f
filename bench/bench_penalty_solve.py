"""Two-player solve under the three-farkle penalty: wall and CPU time, passes, and the Bellman residual.

Run: ``python bench/bench_penalty_solve.py [--rules farkle,three_farkles=1000] [--no-check] [--before SRC]
[--guessed]``
or ``python bench/bench_penalty_solve.py --sweeps 10`` (no solve: the sweeps of one pass, see :func:`sweeps`: three
counts alone or together, the crossing band's tables)

Solves from scratch (the cache is not read), as Hard and the coach do on first use of such rules, then
reports how often the progress moved and the largest Bellman residual of the table from
``hotdice.analysis.solver.check`` (an independent re-sweep of every state with every legal set-aside).
``--before SRC`` solves the same rules with another checkout's ``src`` (e.g. main's, today's method, or the
package as it was when issue 16 was filed, ``git worktree add /tmp/orig e4091db``: ``/tmp/orig/src``) in a child
process first, and prints both side by side with the largest difference between the two tables. Other work
on the machine inflates wall time: the load average is printed, and CPU time is the figure to compare.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


def _solver() -> Any:
    """The solver's module and the rules' class, in this package's layout or in the one before 2026-12-01 19:54
    (``hotdice.players.solver``, ``hotdice.rules``), so that ``--before`` can run the method of that time."""
    try:
        from hotdice.analysis.solver import two_player as module
        from hotdice.game.rules import Rules
    except ImportError:
        from hotdice.players.solver import two_player as module  # type: ignore[no-redef]
        from hotdice.rules import Rules  # type: ignore[no-redef]
    return module, Rules


def solve(text: str, save: Path, guessed: bool = False) -> tuple[dict[str, Any], Any]:
    """Solve ``text`` after compiling the kernels on a small table: the figures and the solution (its table
    saved too). ``guessed``: the passes start from the table of the game without the penalty read as
    ``two_player_solution`` would when it is at hand (shipped or cached), instead of solving it first."""
    import hotdice

    module, rules_class = _solver()
    solve_two_players = module.solve_two_players
    rules = rules_class.parse(text)
    solve_two_players(rules.replace(target=1000))  # compile the kernels first: not part of the figure
    if guessed:
        from hotdice.analysis.solver import two_player_solution

        guess = {"guess": two_player_solution(rules.replace(three_farkles=0)).w}
    else:
        guess = {}
    wall, cpu = time.perf_counter(), time.process_time()
    told: list[tuple[float, float]] = []  # (seconds, share) as the background solver would see them
    sol = solve_two_players(rules, progress=lambda share: told.append((time.perf_counter() - wall, share)), **guess)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    gap = max(b[0] - a[0] for a, b in zip([(0.0, 0.0), *told], told, strict=False))
    np.save(save, sol.w4)
    return {
        "wall": wall,
        "cpu": cpu,
        "passes": sol.passes,
        "first": float(sol.w[0, 0]),
        "reports": len(told),
        "gap": gap,
        "load": os.getloadavg()[0],
        "source": str(Path(hotdice.__file__).parent),
    }, sol


def sweeps(text: str, step: int) -> None:
    """CPU time of a pass's sweeps from every ``step``-th seat against every ``step``-th (the solved table's
    values, read from the package): each of the mover's three counts swept alone, as the passes did before,
    against the three in one sweep as they do now; and whether the values and slopes are the same."""
    from hotdice.analysis.solver import kernel, two_player_solution
    from hotdice.analysis.solver.two_player import _END_CODE
    from hotdice.game.rules import Rules

    rules = Rules.parse(text)
    sol = two_player_solution(rules)
    st, w = sol.seats, sol.w4
    args = (
        _END_CODE[rules.end],
        st.target,
        sol.beyond,
        st.score,
        st.entered,
        1 if rules.entry else 0,
        st.may_bank,
        st.records,
        sol.final,
        sol.table.dice,
        sol.table.arrays,
        sol.near.arrays,
        st.tmax,
    )
    pen = sol.penalty_seats()
    states = [
        (i, j, fo) for i in range(0, st.score.size, step) for j in range(0, st.score.size, step) for fo in range(3)
    ]
    farkles = {
        s: np.array([w[s[1], s[0], s[2], 1], w[s[1], s[0], s[2], 2], w[s[1], pen[s[0]], s[2], 0]]) for s in states
    }
    kernel._start_value(0, 0, 0, 0.5, 0.5, w, *args)  # compiled before the clock starts
    kernel._start_values(0, 0, 0, farkles[states[0]], 0.5, w, *args)
    cpu = time.process_time()
    one = {s: [kernel._start_value(*s, x, w[s[1], s[0], s[2], 0], w, *args) for x in farkles[s]] for s in states}
    alone = time.process_time() - cpu
    cpu = time.process_time()
    three = {s: kernel._start_values(*s, farkles[s], w[s[1], s[0], s[2], 0], w, *args) for s in states}
    together = time.process_time() - cpu
    same = all(tuple(three[s][:, c]) == one[s][c] for s in states for c in range(3))
    print(
        f"{len(states)} (mover, opponent, opponent's count) of {rules}: three sweeps {alone:.2f} s CPU, one "
        f"3-channel sweep {together:.2f} s CPU: {alone / together:.2f}x; values and slopes identical: {same}"
    )
    # The crossing band: a roll table per distance to the target against every set-aside there (row 0 in every row,
    # the sweep before), and the band weighed as far from the target (not exact: how much the band still costs).
    bt = sol.near
    every = dataclasses.replace(bt, group_start=np.repeat(bt.group_start[:1], bt.group_start.shape[0], axis=0))
    bands = {"a row per distance": bt.arrays, "every set-aside": every.arrays, "none (not exact)": sol.table.unbanded}
    timed = {}
    for name, near in bands.items():
        a = (*args[:11], near, args[12])
        kernel._start_values(0, 0, 0, farkles[states[0]], 0.5, w, *a)
        best = np.inf
        for _ in range(3):
            cpu = time.process_time()
            timed[name] = [kernel._start_values(*s, farkles[s], w[s[1], s[0], s[2], 0], w, *a) for s in states]
            best = min(best, time.process_time() - cpu)
        print(f"crossing band weighed with {name}: {best:.3f} s CPU (best of 3)")
    pairs = zip(timed["a row per distance"], timed["every set-aside"], strict=True)
    diff = max(np.abs(x - y)[0].max() for x, y in pairs)
    print(f"largest difference of a value, a row per distance against every set-aside: {diff:.1e}")


def show(name: str, f: dict[str, Any]) -> None:
    print(
        f"{name}: {f['wall']:.1f} s wall, {f['cpu']:.1f} s CPU, {f['passes']} passes, first player wins "
        f"{f['first']:.12f}; {f['reports']} reports of progress, the longest wait {f['gap']:.1f} s; load after "
        f"{f['load']:.1f} ({f['source']})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="farkle,three_farkles=1000")
    parser.add_argument("--no-check", action="store_true", help="skip the Bellman residual (slow)")
    parser.add_argument("--before", type=Path, help="another checkout's src, solved first in a child process")
    parser.add_argument("--sweeps", type=int, help="time one pass's sweeps on every n-th seat (no solve)")
    parser.add_argument("--guessed", action="store_true",
                        help="start the passes from the table of the rules without the penalty (shipped or cached)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)  # the child: save the table there
    args = parser.parse_args()
    if args.child:
        print(json.dumps(solve(args.rules, args.child)[0]))
        return
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"rules: {_solver()[1].parse(args.rules)}")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    if args.sweeps:
        sweeps(args.rules, args.sweeps)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        before = None
        if args.before:
            # Its own numba cache: nothing written into the other checkout (the compile is not in the figure).
            env = {**os.environ, "PYTHONPATH": str(args.before.resolve()), "NUMBA_CACHE_DIR": f"{tmp}/numba"}
            out = subprocess.run(
                [sys.executable, __file__, "--rules", args.rules, "--child", f"{tmp}/before.npy"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            before = json.loads(out.splitlines()[-1])
            show("before", before)
        after, sol = solve(args.rules, Path(tmp) / "after.npy", args.guessed)
        show("after ", after)
        if before is not None:
            diff = np.abs(np.load(f"{tmp}/before.npy") - np.load(f"{tmp}/after.npy")).max()
            print(
                f"ratio: {before['cpu'] / after['cpu']:.2f}x CPU, {before['wall'] / after['wall']:.2f}x wall; "
                f"largest difference between the tables {diff:.1e}"
            )
    if not args.no_check:
        from hotdice.analysis.solver.check import check

        started = time.perf_counter()
        print(f"largest Bellman residual: {check(sol):.1e} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
