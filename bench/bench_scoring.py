"""Scoring speed per preset: table build time, and rolls scored per second three ways.

Run: ``python bench/bench_scoring.py``

For each preset in ``hotdice.game.variants.VARIANTS``:

- tables: seconds to build ``Scorer(rules)`` from scratch, best of 5;
- batch: rolls/s of ``Scorer.best_points_batch`` on 1,000,000 random full rolls (best of 5);
- best(): rolls/s of ``Scorer.best(roll)`` called in a Python loop over the first 100,000 of them;
- naive: rolls/s of a brute-force scorer (below) over the first 10,000 of them.

The three scorers must agree on every roll they share; the script stops if they do not.
Aims (issue 2): tables under 0.2 s per preset; over 1,000,000 rolls/s through the batch call.
"""

from __future__ import annotations

import platform
import time
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from hotdice.game.rules import Rules
from hotdice.game.scoring import Scorer, combinations
from hotdice.game.variants import VARIANTS

SEED = 20_260_101
BATCH_ROLLS = 1_000_000
LOOP_ROLLS = 100_000
NAIVE_ROLLS = 10_000
REPEATS = 5
TABLES_AIM_S = 0.2
BATCH_AIM = 1_000_000


def best_of(repeats: int, work: Callable[..., object], *args: object) -> float:
    """Shortest wall time of ``repeats`` calls ``work(*args)``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work(*args)
        times.append(time.perf_counter() - start)
    return min(times)


class NaiveScorer:
    """Best points of a roll by brute force, with no tables: every subset of dice positions, and every
    partition of it into the rules' combinations. The yardstick the tables are measured against."""

    def __init__(self, rules: Rules) -> None:
        self.validate = rules.validate
        combos = [(Counter(c.dice), c.points) for c in combinations(rules)]
        # The combinations that hold a die of each face: the lowest die left must go into one of them.
        self.holding = {face: [(c, p) for c, p in combos if c[face]] for face in range(1, 7)}

    def best(self, roll: Sequence[int]) -> int:
        n = len(roll)
        counts = Counter(roll)
        best = 0
        for mask in range(1, 1 << n):
            set_aside = Counter(roll[i] for i in range(n) if mask >> i & 1)
            # With validation every triple of the roll must be set aside (scoring.py, RULES.md).
            if self.validate and any(set_aside[f] < 3 * (c // 3) for f, c in counts.items()):
                continue
            best = max(best, self._partition(set_aside))
        return best

    def _partition(self, dice: Counter[int]) -> int:
        """Most points of exactly these dice split into combinations; 0 if some die cannot score."""
        if not dice:
            return 0
        first = min(dice)
        best = 0
        for combo, points in self.holding[first]:
            if not combo - dice:
                left = dice - combo
                rest = self._partition(left) if left else 0
                if (rest or not left) and points + rest > best:
                    best = points + rest
        return best


WIDTHS = (10, 4, 10, 14, 14, 13, 12, 11)


def table_line(cells: Sequence[str]) -> str:
    """One line of the printed table: the first column left-aligned, the figures right-aligned."""
    return "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, WIDTHS, strict=True)))


def main() -> None:
    rng = np.random.default_rng(SEED)
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"batch: {BATCH_ROLLS:,} rolls; best(): {LOOP_ROLLS:,}; naive: {NAIVE_ROLLS:,}; seed {SEED}")
    print()
    header = (
        "preset",
        "dice",
        "tables (s)",
        "batch rolls/s",
        "best() rolls/s",
        "naive rolls/s",
        "batch/best()",
        "batch/naive",
    )
    print(table_line(header))
    print(table_line(["-" * w for w in WIDTHS]))
    met = True
    for variant in VARIANTS:
        rules = variant.rules
        tables = best_of(REPEATS, Scorer, rules)
        scorer = Scorer(rules)
        rolls = rng.integers(1, 7, size=(BATCH_ROLLS, rules.dice), dtype=np.int64)

        batch_s = best_of(REPEATS, scorer.best_points_batch, rolls)
        batch_points = scorer.best_points_batch(rolls)

        loop = [tuple(r) for r in rolls[:LOOP_ROLLS].tolist()]
        start = time.perf_counter()
        loop_points = [o.points if (o := scorer.best(r)) is not None else 0 for r in loop]
        loop_s = time.perf_counter() - start

        naive = NaiveScorer(rules)
        start = time.perf_counter()
        naive_points = [naive.best(r) for r in loop[:NAIVE_ROLLS]]
        naive_s = time.perf_counter() - start

        if loop_points != batch_points[:LOOP_ROLLS].tolist():
            raise SystemExit(f"{variant.name}: best() and best_points_batch disagree")
        if naive_points != loop_points[:NAIVE_ROLLS]:
            bad = next(i for i, (a, b) in enumerate(zip(naive_points, loop_points, strict=False)) if a != b)
            raise SystemExit(
                f"{variant.name}: naive {naive_points[bad]} != tables {loop_points[bad]} for roll {loop[bad]}"
            )

        batch_rate = BATCH_ROLLS / batch_s
        loop_rate = LOOP_ROLLS / loop_s
        naive_rate = NAIVE_ROLLS / naive_s
        met = met and tables < TABLES_AIM_S and batch_rate > BATCH_AIM
        cells = (
            variant.name,
            str(rules.dice),
            f"{tables:.3f}",
            f"{batch_rate:,.0f}",
            f"{loop_rate:,.0f}",
            f"{naive_rate:,.0f}",
            f"{batch_rate / loop_rate:,.0f}x",
            f"{batch_rate / naive_rate:,.0f}x",
        )
        print(table_line(cells), flush=True)
    print()
    print(f"aims: tables < {TABLES_AIM_S} s per preset, batch > {BATCH_AIM:,} rolls/s: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
