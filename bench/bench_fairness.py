"""Chi-square of the dice over a million faces: SeededDice (three fixed seeds) and SecureDice (three runs).

Prints a Markdown table for BENCHMARKS.md: per source, the face counts' chi-square (5 degrees of freedom)
and the pairs' (35: dice 1-2, 3-4, 5-6 of each roll), their p-values, and how fast the faces were drawn.
For comparison, the same statistics for numpy's generator and for bytes taken ``% 6`` without rejection
(the modulo bias the dice avoid), and the speed of
SecureDice's previous way (one ``secrets.randbelow`` per die). Run: ``python bench/bench_fairness.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import time

import numpy as np

from hotdice.game.dice import SecureDice, SeededDice
from hotdice.sim.fairness import Fit, draw, face_fit, pair_fit

FACES = 1_000_002  # 166,667 rolls of six dice


class PerDieSecrets:
    """SecureDice before 2026-11-30: one ``secrets.randbelow(6)`` per die (a system call each)."""

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        return tuple(secrets.randbelow(6) + 1 for _ in range(n))


def row(source: str, rolls: np.ndarray, seconds: float | None) -> str:
    faces, pairs = face_fit(rolls), pair_fit(rolls)
    speed = "—" if seconds is None else f"{rolls.size / seconds:,.0f}"
    low, high = min(faces.counts), max(faces.counts)
    return (f"| {source} | {low:,}–{high:,} | {faces.statistic:.2f} | {_p(faces)} | {pairs.statistic:.2f} | "
            f"{_p(pairs)} | {speed} |")


def _p(fit: Fit) -> str:
    return f"{fit.p:.3f}" if fit.p >= 0.001 else f"{fit.p:.1e}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="seeds of SeededDice and runs of SecureDice")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d')} · Python {platform.python_version()} · {os.cpu_count()} cores · "
          f"{FACES:,} faces per row")
    print()
    print("| source | face counts (min–max; 166,667 expected) | faces χ² (5 df) | p | pairs χ² (35 df) | p "
          "| faces/s drawn |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for i in range(args.runs):
        seed = f"bench/fairness/{i}".encode()
        started = time.perf_counter()
        rolls = draw(SeededDice(seed), FACES)
        print(row(f"SeededDice(b\"{seed.decode()}\")", rolls, time.perf_counter() - started))
    for i in range(args.runs):
        started = time.perf_counter()
        rolls = draw(SecureDice(), FACES)
        print(row(f"SecureDice, run {i + 1}", rolls, time.perf_counter() - started))
    started = time.perf_counter()
    rolls = draw(PerDieSecrets(), FACES)
    print(row("secrets.randbelow per die (the previous SecureDice)", rolls, time.perf_counter() - started))
    rng = np.random.default_rng(20261130)
    print(row("numpy default_rng (comparison)", rng.integers(1, 7, size=(FACES // 6, 6)).astype(np.int8), None))
    biased = (rng.integers(0, 256, size=(FACES // 6, 6)) % 6 + 1).astype(np.int8)
    print(row("bytes % 6, no rejection (biased, comparison)", biased, None))


if __name__ == "__main__":
    main()
