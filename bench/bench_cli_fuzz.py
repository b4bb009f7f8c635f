"""Every ``hotdice`` verb fuzzed at length, counting what it finds instead of stopping at the first failure.

Run: ``python bench/bench_cli_fuzz.py [--examples 300] [--seed 0]``: ``--examples`` command lines a verb, from
the strategies of ``tests/cli_fuzz.py`` (``tests/test_cli_fuzz.py`` runs a few a verb in the suite), each in
this process, with a data and cache folder of its own. Prints, a verb: the inputs tried, their exit codes, the
tracebacks and the other breaks of the contract (an exit code other than 0 or 2, a refusal not on one line),
the first of each, and the seconds it took.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests.cli_fuzz, the strategies the suite uses

from tests.cli_fuzz import VERBS, Line, command_lines, run


def fuzz(verb: str, examples: int, chosen: int) -> tuple[collections.Counter[int | None], collections.Counter[str],
                                                         dict[str, str]]:
    """``examples`` command lines of ``verb``: their exit codes, the breaks of the contract by kind (``traceback``,
    ``other``) and the first of each."""
    codes: collections.Counter[int | None] = collections.Counter()
    broken: collections.Counter[str] = collections.Counter()
    first: dict[str, str] = {}

    @seed(chosen)
    @given(line=command_lines(verb))
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    def one(line: Line) -> None:
        with tempfile.TemporaryDirectory() as folder:
            ran = run(line, Path(folder))
        codes[ran.code] += 1
        if (wrong := ran.wrong(verb)) is not None:
            kind = "traceback" if wrong.startswith("traceback") else "other"
            broken[kind] += 1
            first.setdefault(kind, f"{line.args!r}: {wrong.strip().splitlines()[-1]}")

    one()
    return codes, broken, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="command lines a verb")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis's seed")
    parser.add_argument("--verbs", default=",".join(VERBS), help="comma-separated verbs (default: all)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="hotdice-cli-fuzz-"))
    os.environ["HOTDICE_DATA_DIR"], os.environ["HOTDICE_CACHE_DIR"] = str(root / "data"), str(root / "cache")
    total = crashes = 0
    print(f"{'verb':<9} {'inputs':>6} {'exit 0':>6} {'exit 1':>6} {'exit 2':>6} {'tracebacks':>10} {'other':>5} "
          f"{'seconds':>7}")
    for verb in args.verbs.split(","):
        start = time.perf_counter()
        codes, broken, first = fuzz(verb, args.examples, args.seed)
        tried = sum(codes.values())
        total += tried
        crashes += broken["traceback"]
        print(f"{verb:<9} {tried:>6} {codes[0]:>6} {codes[1]:>6} {codes[2]:>6} {broken['traceback']:>10} "
              f"{broken['other']:>5} {time.perf_counter() - start:>7.1f}", flush=True)
        for kind, example in first.items():
            print(f"  first {kind}: {example}")
    print(f"all      {total:>6} inputs, {crashes} tracebacks")


if __name__ == "__main__":
    main()
