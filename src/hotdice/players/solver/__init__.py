"""Solved tables per rules: computed on first use, kept in memory and in the user's cache folder.

The cache key is the rules string (every rule that changes play is in it) and a format version, so a
change of rules or of solver never reads a stale table. ``HOTDICE_CACHE_DIR`` overrides the folder.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import os
from pathlib import Path

import numpy as np
import platformdirs

from hotdice.players.solver.model import UNIT, roll_table, seats
from hotdice.players.solver.race import RaceSolution, solve_race
from hotdice.players.solver.two_player import Progress, TwoPlayerSolution, solve_two_players
from hotdice.rules import Rules

__all__ = [
    "MAX_PENALTY_TARGET",
    "MAX_TARGET",
    "PROGRESS",
    "UNIT",
    "RaceSolution",
    "TwoPlayerSolution",
    "affordable",
    "cache_dir",
    "race_solution",
    "race_solved",
    "refusal",
    "solved",
    "two_player_solution",
]

FORMAT = 3


def cache_dir() -> Path:
    return Path(os.environ.get("HOTDICE_CACHE_DIR") or platformdirs.user_cache_dir("hotdice"))


def _path(kind: str, rules: Rules) -> Path:
    key = hashlib.sha256(f"{FORMAT}/{kind}/{rules}".encode()).hexdigest()[:16]
    return cache_dir() / f"{kind}-{key}.npz"


# The largest targets Hard solves exactly: the two-player table takes 15-40 s at 10 000 on two cores; under
# the three-farkle penalty its repeated passes take 20-27 minutes at 10 000, about 3 minutes of CPU at 5 000
# (BENCHMARKS.md). Beyond them, a table already at hand (cached, shipped) is still used.
MAX_TARGET = 10_000
MAX_PENALTY_TARGET = 5_000


def refusal(rules: Rules) -> str | None:
    """Why Hard cannot play ``rules`` exactly (None if it can): the reason shown where such rules are refused."""
    if solved(rules):
        return None
    if rules.target > MAX_TARGET:
        return (f"Hard solves games up to a target of {MAX_TARGET}; target={rules.target} would take too long "
                f"to solve")
    if rules.three_farkles and rules.target > MAX_PENALTY_TARGET:
        return (f"under the three-farkle penalty Hard solves games up to a target of {MAX_PENALTY_TARGET}; "
                f"target={rules.target} would take too long to solve")
    return None


def affordable(rules: Rules) -> bool:
    """Whether Hard plays ``rules`` exactly: its table is at hand, or solved within the bounds of :func:`refusal`."""
    return refusal(rules) is None


# The progress of the solve running in this context (the background solver's thread sets it).
PROGRESS: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("hotdice_solve_progress", default=None)


@functools.lru_cache(maxsize=8)
def two_player_solution(rules: Rules) -> TwoPlayerSolution:
    """The solved two-player table of ``rules``, from the cache or solved now (and cached)."""
    path = _path("two", rules)
    if path.exists():
        try:
            with np.load(path) as data:
                if str(data["rules"]) == str(rules):
                    st = seats(rules)
                    return TwoPlayerSolution(rules, st, roll_table(rules, by_points=True), data["w4"], data["final"],
                                             float(data["seconds"]), int(data["passes"]))
        except (OSError, ValueError, KeyError):
            pass  # unreadable or from another format: solve again
    sol = solve_two_players(rules, progress=PROGRESS.get())
    _solved_here.add(str(rules))
    _save(path, rules=str(rules), w4=sol.w4, final=sol.final, seconds=sol.seconds, passes=sol.passes)
    return sol


def solved(rules: Rules) -> bool:
    """Whether the two-player table of ``rules`` is at hand without solving: in memory or in the cache folder."""
    return str(rules) in _solved_here or _path("two", rules).exists()


def race_solved(rules: Rules) -> bool:
    """Whether the race table of ``rules`` is at hand without solving."""
    return f"race/{rules}" in _solved_here or _path("race", rules).exists()


_solved_here: set[str] = set()  # solved in this process, even where the cache folder could not be written


@functools.lru_cache(maxsize=8)
def race_solution(rules: Rules) -> RaceSolution:
    """Expected turns to the target from every seat, from the cache or solved now (and cached)."""
    path = _path("race", rules)
    if path.exists():
        try:
            with np.load(path) as data:
                if str(data["rules"]) == str(rules):
                    st = seats(rules)
                    return RaceSolution(rules, st, roll_table(rules, by_points=True), data["turns"],
                                        float(data["seconds"]))
        except (OSError, ValueError, KeyError):
            pass
    sol = solve_race(rules, progress=PROGRESS.get())
    _solved_here.add(f"race/{rules}")
    _save(path, rules=str(rules), turns=sol.turns, seconds=sol.seconds)
    return sol


def _save(path: Path, **arrays: object) -> None:
    """Write atomically; a cache that cannot be written only costs a solve next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)
    except OSError:
        pass
