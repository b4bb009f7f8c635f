"""The human output of ``simulate``, ``solve``, ``advise`` and ``stats`` through the catalogue: in English byte
for byte what it was before (pinned in tests/cli_english/, written by the code before the catalogue worded it),
in French with none of the English catalogue's words, the JSON the same in both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hotdice.game.rules import Rules
from tests.french_support import english_left
from tests.test_cli import ENV, ok

PINNED = Path(__file__).parent / "cli_english"
CASES: dict[str, tuple[str, ...]] = {
    "simulate": ("simulate", "-p", "greedy,random", "-n", "50", "--seed", "1"),
    "solve-two": ("solve", "--rules", "farkle,target=3000"),
    "solve-solo": ("solve", "-p", "1", "--check", "--rules", "farkle,entry=500,target=3000"),
    "advise-roll": ("advise", "--scores", "0,0", "--turn", "300", "155234", "--rules", "farkle,target=3000"),
    "advise-bank": ("advise", "--scores", "0,0", "--turn", "300", "-d", "2", "--rules", "farkle,target=3000"),
    "advise-turns": ("advise", "--scores", "0", "--turn", "300", "-d", "2", "--rules", "farkle,target=3000"),
    "advise-win": ("advise", "--scores", "0,0", "11111", "--rules", "5000-fr"),
    "advise-farkle": ("advise", "--scores", "0,0", "--turn", "300", "-d", "2", "22", "--rules", "farkle,target=3000"),
}


def stats_env(folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A statistics database in ``folder`` holding one finished ten-turn game (ten farkles)."""
    from hotdice.game.dice import FixedDice
    from hotdice.play.modes import solo
    from hotdice.store import Store
    from hotdice.store.stats import record_game

    dice = FixedDice([(2, 2, 3, 4, 6, 6)] * 10)
    setup = solo(Rules.parse("farkle,entry=500"), "Ann", dice=dice)
    while setup.game.outcome is None:
        setup.game.play("roll", dice)
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(folder))
    with Store() as store:
        record_game(store, setup.game, player=0, mode="solo", opponent=None)
    return {**ENV, "HOTDICE_DATA_DIR": str(folder)}


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_english_output_is_what_it_was(name: str) -> None:
    assert ok(*CASES[name]) == (PINNED / f"{name}.txt").read_text(encoding="utf-8")
    assert ok("--lang", "en", *CASES[name]) == ok(*CASES[name])


def test_the_english_statistics_are_what_they_were(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = stats_env(tmp_path, monkeypatch)
    assert run(env, "stats") == (PINNED / "stats.txt").read_text(encoding="utf-8")
    assert run({**env, "HOTDICE_DATA_DIR": str(tmp_path / "empty")}, "stats") == (
        PINNED / "stats-empty.txt"
    ).read_text(encoding="utf-8")
