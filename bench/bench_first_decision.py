"""Hard's first decision in a fresh process with an empty user cache: the shipped tables make it immediate.

Run: ``python bench/bench_first_decision.py [--runs 5] [--fresh-numba]``

For each rules set of ``SHIPPED_RULES`` whose table is shipped, ``--runs`` new processes each time Hard's first
decision of a game (after a first roll) under an empty ``HOTDICE_CACHE_DIR``: the table is read from the
package, nothing is solved. The time of reading the table is shown apart: the rest of the first decision is
numba loading its compiled turn sweep, once per process. With ``--fresh-numba`` the numba cache is empty too (a
first run after install, which compiles the turn sweep once). Prints the median and max per rules set, and the
shipped tables' size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from hotdice.analysis.solver import SHIPPED, SHIPPED_RULES, solved
from hotdice.game.rules import Rules

CHILD = """
import random, sys, time
from hotdice.game.engine import Game
from hotdice.play.players import make_player
from hotdice.analysis.solver import two_player_solution
from hotdice.game.rules import Rules
rules = Rules.parse(sys.argv[1])
game = Game(rules, players=("hard", "other"))
game.apply("roll")
game.apply_roll((1, 2, 3, 4, 6, 6)[: rules.dice])
hard = make_player("hard", random.Random(0))
started = time.perf_counter()
two_player_solution(rules)
read = time.perf_counter()
hard.choose(game)
print(read - started, time.perf_counter() - started)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fresh-numba", action="store_true", help="an empty numba cache too")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for text in SHIPPED_RULES:
        if not solved(Rules.parse(text)):
            print(f"{text}: not shipped")
            continue
        reads, times = [], []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                env = {**os.environ, "HOTDICE_CACHE_DIR": os.path.join(tmp, "cache")}
                if args.fresh_numba:
                    env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba")
                out = subprocess.run([sys.executable, "-c", CHILD, text], env=env, check=True, capture_output=True,
                                     text=True).stdout
                read, decided = map(float, out.split())
                reads.append(read)
                times.append(decided)
        print(f"{text}: table read median {1000 * statistics.median(reads):.0f} ms, max {1000 * max(reads):.0f} ms; "
              f"first decision (with it) median {1000 * statistics.median(times):.0f} ms, "
              f"max {1000 * max(times):.0f} ms", flush=True)
    files = sorted(SHIPPED.glob("*.npz"))
    print(f"shipped: {len(files)} tables, {sum(f.stat().st_size for f in files):,} bytes")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
