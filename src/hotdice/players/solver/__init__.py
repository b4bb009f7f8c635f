"""Solved tables per rules: computed on first use, kept in memory and in the user's cache folder.

The cache key is the rules string (every rule that changes play is in it) and a format version, so a
change of rules or of solver never reads a stale table. ``HOTDICE_CACHE_DIR`` overrides the folder.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from pathlib import Path

import numpy as np
import platformdirs

from hotdice.players.solver.model import UNIT, roll_table, seats
from hotdice.players.solver.race import RaceSolution, solve_race
from hotdice.players.solver.two_player import TwoPlayerSolution, solve_two_players
from hotdice.rules import Rules

__all__ = ["UNIT", "RaceSolution", "TwoPlayerSolution", "affordable", "cache_dir", "race_solution", "solve_later",
           "solved", "two_player_solution"]

FORMAT = 3


def cache_dir() -> Path:
    return Path(os.environ.get("HOTDICE_CACHE_DIR") or platformdirs.user_cache_dir("hotdice"))


def _path(kind: str, rules: Rules) -> Path:
    key = hashlib.sha256(f"{FORMAT}/{kind}/{rules}".encode()).hexdigest()[:16]
    return cache_dir() / f"{kind}-{key}.npz"


def affordable(rules: Rules) -> bool:
    """Whether the two-player table of ``rules`` is at hand within a wait a player accepts: cached already, or
    solved in well under a minute on two cores (up to a 10 000 target; 2 000 under the three-farkle penalty,
    whose repeated passes take about 20 minutes at 10 000). See BENCHMARKS.md."""
    if solved(rules):
        return True
    return rules.target <= (2_000 if rules.three_farkles else 10_000)


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
    sol = solve_two_players(rules)
    _solved_here.add(str(rules))
    _save(path, rules=str(rules), w4=sol.w4, final=sol.final, seconds=sol.seconds, passes=sol.passes)
    return sol


def solved(rules: Rules) -> bool:
    """Whether the two-player table of ``rules`` is at hand without solving: in memory or in the cache folder."""
    return str(rules) in _solved_here or _path("two", rules).exists()


_solved_here: set[str] = set()  # solved in this process, even where the cache folder could not be written
_solving = threading.Lock()


def solve_later(rules: Rules) -> bool:
    """Start solving the two-player table of ``rules`` in a background thread, unless a solve is already running
    in this process: a server answers at once meanwhile and never runs more than one solve at a time.
    Returns whether a solve was started."""
    if not _solving.acquire(blocking=False):
        return False

    def solve() -> None:
        try:
            two_player_solution(rules)
        finally:
            _solving.release()

    threading.Thread(target=solve, name=f"solve {rules}", daemon=True).start()
    return True


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
    sol = solve_race(rules)
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
