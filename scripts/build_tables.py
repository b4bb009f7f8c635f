"""Build the solved tables shipped with the package (src/hotdice/analysis/solver/tables/), from the solver itself.

Run: ``python scripts/build_tables.py [--only RULES ...]``. Tables already there under the current key (what the
rules mean, ``solver.meaning``, and ``FORMAT``) are kept, so an interrupted build resumes; tables under another key
are removed. In the order of ``SHIPPED_RULES``: the cheap ones first. After a change of the solver's values, bump
``FORMAT`` and run this again.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hotdice.analysis.solver import FORMAT, SHIPPED, SHIPPED_RULES, race_arrays, save, table_path, two_player_arrays
from hotdice.analysis.solver.race import solve_race
from hotdice.analysis.solver.two_player import solve_two_players
from hotdice.game.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="rules strings to build (default: all)")
    args = parser.parse_args()
    SHIPPED.mkdir(exist_ok=True)
    shipped = [Rules.parse(r) for r in SHIPPED_RULES]
    wanted = [Rules.parse(r) for r in args.only] if args.only else shipped
    keep = {table_path(kind, r, SHIPPED).name for r in shipped for kind in ("two", "race")}
    for stale in SHIPPED.glob("*.npz"):
        if stale.name not in keep and ".tmp." not in stale.name:  # another build's table being written
            print(f"removing {stale.name} (not a current key, FORMAT {FORMAT})")
            stale.unlink()
    for rules in wanted:
        two = table_path("two", rules, SHIPPED)
        if not two.exists():
            started = time.perf_counter()
            sol = solve_two_players(rules)
            save(two, **two_player_arrays(sol, np.float32))
            print(f"{rules}: two players in {time.perf_counter() - started:.1f} s, {two.stat().st_size:,} bytes",
                  flush=True)
        race = table_path("race", rules, SHIPPED)
        if not rules.three_farkles and not race.exists():  # the race solver has no penalty (nor needs it: solo)
            save(race, **race_arrays(solve_race(rules), np.float32))
            print(f"{rules}: race, {race.stat().st_size:,} bytes", flush=True)


if __name__ == "__main__":
    main()
