"""Solved tables per rules: shipped with the package for the presets and their house rules, otherwise computed
on first use, kept in memory and in the user's cache folder.

The key is every knob that differs from the defaults (what the rules mean: a rules string names its preset, whose
meaning may change, as 5000-fr's did with set_aside=all) and a format version, bumped whenever the solver's values
change, so a change of rules, of a preset or of solver never reads a stale table. ``HOTDICE_CACHE_DIR``
overrides the folder. The shipped tables (``tables/``, float32, built by ``scripts/build_tables.py``) are read
first.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import platformdirs

from hotdice.analysis.solver.model import UNIT, roll_table, seats
from hotdice.analysis.solver.race import RaceSolution, solve_race
from hotdice.analysis.solver.two_player import Progress, TwoPlayerSolution, solve_two_players
from hotdice.game.rules import KNOBS, Rules

__all__ = [
    "MAX_TARGET",
    "PROGRESS",
    "SHIPPED",
    "SHIPPED_RULES",
    "UNIT",
    "RaceSolution",
    "TooLong",
    "TwoPlayerSolution",
    "affordable",
    "cache_dir",
    "meaning",
    "race_arrays",
    "race_solution",
    "race_solved",
    "refusal",
    "save",
    "solved",
    "table_path",
    "two_player_arrays",
    "two_player_solution",
]

FORMAT = 3
SHIPPED = Path(__file__).parent / "tables"
# The shipped tables: the presets, each alone and with the house rules the settings offer (two players; the solo
# race too where there is no penalty, which the race solver does not take). The two farkle tables under the
# penalty take the longest to solve (minutes each): scripts/build_tables.py builds them last.
SHIPPED_RULES = (
    "5000-fr", "5000-fr-6", "5000", "farkle",
    "5000-fr,entry=500", "5000-fr-6,entry=500", "5000,entry=500", "farkle,entry=500",
    "5000-fr,three_farkles=1000", "5000-fr-6,three_farkles=1000", "5000,three_farkles=1000",
    "5000-fr,entry=500,three_farkles=1000", "5000-fr-6,entry=500,three_farkles=1000",
    "5000,entry=500,three_farkles=1000",
    "farkle,three_farkles=1000", "farkle,entry=500,three_farkles=1000",
)


def cache_dir() -> Path:
    return Path(os.environ.get("HOTDICE_CACHE_DIR") or platformdirs.user_cache_dir("hotdice"))


def meaning(rules: Rules) -> str:
    """What ``rules`` mean, whatever the presets: every knob that differs from the defaults, as ``knob=value``."""
    return ",".join(f"{k.name}={k.write(getattr(rules, k.name))}" for k in KNOBS
                    if getattr(rules, k.name) != getattr(_DEFAULTS, k.name))


_DEFAULTS = Rules()


def table_path(kind: str, rules: Rules, folder: Path | None = None) -> Path:
    """Where the ``kind`` ("two" or "race") table of ``rules`` is kept in ``folder`` (the cache by default)."""
    key = hashlib.sha256(f"{FORMAT}/{kind}/{meaning(rules)}".encode()).hexdigest()[:16]
    return (folder or cache_dir()) / f"{kind}-{key}.npz"


def _load(kind: str, rules: Rules) -> dict[str, npt.NDArray[Any]] | None:
    """The stored arrays of a table, shipped or cached, as float64; None if neither holds this key."""
    for path in (table_path(kind, rules, SHIPPED), table_path(kind, rules)):
        try:
            with np.load(path) as data:
                if (str(data["rules"]) == str(rules) and str(data["knobs"]) == meaning(rules)
                        and int(data["format"]) == FORMAT):
                    arrays = {k: data[k] for k in data.files}
                    return {k: a.astype(np.float64) if a.dtype.kind == "f" else a for k, a in arrays.items()}
        except (OSError, ValueError, KeyError):
            pass  # absent, unreadable or from another format: the next place, or solve again
    return None


# The largest target Hard solves exactly: the two-player table takes 10-40 s at 10 000 on two cores, and
# 70-80 s under the three-farkle penalty (BENCHMARKS.md). Beyond it, a table already at hand
# (cached, shipped) is still used.
MAX_TARGET = 10_000


@dataclass(frozen=True)
class TooLong:
    """Why Hard cannot play some rules exactly, as data: their target passes the bound its solve is held to.
    ``str()`` is the English sentence."""

    max_target: int
    target: int

    def __str__(self) -> str:
        return (f"Hard solves games up to a target of {self.max_target}; target={self.target} would take too long "
                "to solve")


def refusal(rules: Rules) -> TooLong | None:
    """Why Hard cannot play ``rules`` exactly (None if it can): the reason shown where such rules are refused."""
    if solved(rules) or rules.target <= MAX_TARGET:
        return None
    return TooLong(MAX_TARGET, rules.target)


def affordable(rules: Rules) -> bool:
    """Whether Hard plays ``rules`` exactly: its table is at hand, or solved within the bounds of :func:`refusal`."""
    return refusal(rules) is None


# The progress of the solve running in this context (the background solver's thread sets it).
PROGRESS: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("hotdice_solve_progress", default=None)


@functools.lru_cache(maxsize=8)
def two_player_solution(rules: Rules) -> TwoPlayerSolution:
    """The solved two-player table of ``rules``: shipped, cached, or solved now (and cached)."""
    data = _load("two", rules)
    if data is not None:
        return TwoPlayerSolution(rules, seats(rules), roll_table(rules, by_points=True), data["w4"], data["final"],
                                 float(data["seconds"]), int(data["passes"]))
    guess = None
    if rules.three_farkles and solved(plain := rules.replace(three_farkles=0)):
        guess = two_player_solution(plain).w  # the passes start from it instead of solving it again
    sol = solve_two_players(rules, progress=PROGRESS.get(), guess=guess)
    _solved_here.add(str(rules))
    save(table_path("two", rules), **two_player_arrays(sol))
    return sol


def two_player_arrays(sol: TwoPlayerSolution, dtype: type[np.floating[Any]] = np.float64) -> dict[str, object]:
    """What is stored of a two-player table (``dtype`` float32 for the shipped ones)."""
    return {"rules": str(sol.rules), "knobs": meaning(sol.rules), "format": FORMAT, "w4": sol.w4.astype(dtype),
            "final": sol.final.astype(dtype), "seconds": sol.seconds, "passes": sol.passes}


def solved(rules: Rules) -> bool:
    """Whether the two-player table of ``rules`` is at hand without solving: in memory, shipped or cached."""
    return (str(rules) in _solved_here or table_path("two", rules, SHIPPED).exists()
            or table_path("two", rules).exists())


def race_solved(rules: Rules) -> bool:
    """Whether the race table of ``rules`` is at hand without solving."""
    return (f"race/{rules}" in _solved_here or table_path("race", rules, SHIPPED).exists()
            or table_path("race", rules).exists())


_solved_here: set[str] = set()  # solved in this process, even where the cache folder could not be written


@functools.lru_cache(maxsize=8)
def race_solution(rules: Rules) -> RaceSolution:
    """Expected turns to the target from every seat: shipped, cached, or solved now (and cached)."""
    data = _load("race", rules)
    if data is not None:
        return RaceSolution(rules, seats(rules), roll_table(rules, by_points=True), data["turns"],
                            float(data["seconds"]))
    sol = solve_race(rules, progress=PROGRESS.get())
    _solved_here.add(f"race/{rules}")
    save(table_path("race", rules), **race_arrays(sol))
    return sol


def race_arrays(sol: RaceSolution, dtype: type[np.floating[Any]] = np.float64) -> dict[str, object]:
    """What is stored of a race table (``dtype`` float32 for the shipped ones)."""
    return {"rules": str(sol.rules), "knobs": meaning(sol.rules), "format": FORMAT, "turns": sol.turns.astype(dtype),
            "seconds": sol.seconds}


def save(path: Path, **arrays: object) -> None:
    """Write atomically; a cache that cannot be written only costs a solve next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)
    except OSError:
        pass
