"""The solver as a plain install runs it, and the solved tables shipped with the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hotdice.analysis import solver
from hotdice.analysis.solver import (
    FORMAT,
    SHIPPED,
    SHIPPED_RULES,
    meaning,
    race_solution,
    save,
    solved,
    table_path,
    two_player_arrays,
    two_player_solution,
)
from hotdice.analysis.solver.race import solve_race
from hotdice.analysis.solver.two_player import solve_two_players
from hotdice.game.rules import Rules, SetAsideRule


@pytest.mark.slow
def test_penalty_solve_needs_no_scipy(tmp_path: Path) -> None:
    # scipy is only in the test extra; a plain install must solve the three-farkle penalty without it. The
    # kernels are compiled afresh (an empty numba cache), as on a first run.
    fake = tmp_path / "site" / "scipy"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('scipy is not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "HOTDICE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "hotdice.cli", "solve", "--rules",
                           "5000-fr,target=500,entry=0,three_farkles=200", "--players", "2", "--json"],
                          capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


# -- the shipped tables --------------------------------------------------------------------------------


def shipped_files() -> list[Path]:
    return sorted(SHIPPED.glob("*.npz"))


def test_every_shipped_table_is_under_the_current_key() -> None:
    # A table of another solver format, or filed under another rules string, would be ignored: none may ship.
    listed = {str(Rules.parse(r)) for r in SHIPPED_RULES}
    assert shipped_files()
    for path in shipped_files():
        with np.load(path) as data:
            rules = Rules.parse(str(data["rules"]))
            assert str(rules) == str(data["rules"]) and str(rules) in listed, path.name
            assert str(data["knobs"]) == meaning(rules), path.name
            assert int(data["format"]) == FORMAT, path.name
            assert path.name == table_path(path.name.split("-")[0], rules, SHIPPED).name
            assert all(data[k].dtype != np.float64 for k in ("w4", "final", "turns") if k in data.files)


def test_every_listed_rules_set_is_shipped() -> None:
    for text in SHIPPED_RULES:
        rules = Rules.parse(text)
        assert solved(rules), text
        assert rules.three_farkles or table_path("race", rules, SHIPPED).exists(), text


@pytest.mark.slow
@pytest.mark.parametrize("text", ["5000-fr", "5000-fr-6,entry=500"])
def test_a_shipped_table_is_what_the_solver_gives(text: str) -> None:
    rules = Rules.parse(text)
    shipped, fresh = two_player_solution(rules), solve_two_players(rules)
    assert shipped.w4.dtype == np.float64
    assert np.max(np.abs(shipped.w4 - fresh.w4)) <= 1e-7  # float32
    assert np.max(np.abs(shipped.final - fresh.final)) <= 1e-7
    race = race_solution(rules)
    assert np.max(np.abs(race.turns - solve_race(rules).turns) / race.turns) <= 1e-7


def test_a_shipped_table_is_read_before_the_cache_without_solving(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("HOTDICE_CACHE_DIR", str(tmp_path))
    rules = Rules.parse("5000-fr")

    def no_solve(rules: Rules) -> object:
        raise AssertionError(f"solved {rules}")

    monkeypatch.setattr(solver, "solve_two_players", no_solve)
    monkeypatch.setattr(solver, "solve_race", no_solve)
    solver.two_player_solution.cache_clear()
    solver.race_solution.cache_clear()
    assert solver.two_player_solution(rules).w.shape == (101, 101)
    assert solver.race_solution(rules).turns[0] > 1
    assert not any(tmp_path.iterdir())  # nothing solved, nothing cached


def test_a_preset_whose_meaning_changed_is_filed_under_another_key() -> None:
    # 5000-fr took set_aside=all and kept its rules string: its tables solved before are not looked up.
    new = Rules.parse("5000-fr")
    old = new.replace(set_aside=SetAsideRule.CHOOSE)
    assert str(new) == "5000-fr" and meaning(new) != meaning(old)
    for kind in ("two", "race"):
        assert table_path(kind, new) != table_path(kind, old)
        assert table_path(kind, new, SHIPPED).exists() and not table_path(kind, old, SHIPPED).exists()


@pytest.mark.parametrize("bad", [{"format": FORMAT + 1}, {"rules": "5000-fr,target=1000"},
                                 {"knobs": meaning(Rules.parse("5000-fr,target=500,entry=0,set_aside=choose"))}])
def test_a_table_under_another_key_is_never_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 bad: dict[str, object]) -> None:
    rules = Rules.parse("5000-fr,target=500,entry=0")
    fresh = solve_two_players(rules)
    stale = dict(two_player_arrays(fresh, np.float32), w4=np.zeros_like(fresh.w4, dtype=np.float32), **bad)
    monkeypatch.setattr(solver, "SHIPPED", tmp_path)
    save(table_path("two", rules, tmp_path), **stale)
    solver.two_player_solution.cache_clear()
    assert np.max(np.abs(solver.two_player_solution(rules).w4 - fresh.w4)) <= 1e-12
