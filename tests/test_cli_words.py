"""The human output of ``simulate``, ``solve``, ``advise``, ``stats`` and the knobs of ``rules`` through the
catalogue: in English byte for byte what it was before (pinned in tests/cli_english/, written by the code before the
catalogue worded it), in French with none of the English catalogue's words, the JSON the same in both."""

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
    "rules": ("rules", "5000"),
    "simulate": ("simulate", "-p", "greedy,random", "-n", "50", "--seed", "1"),
    "solve-two": ("solve", "--rules", "farkle,target=3000"),
    "solve-solo": ("solve", "-p", "1", "--rules", "farkle,entry=500,target=3000"),
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
    done = subprocess.run(
        [sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_english_output_is_what_it_was(name: str) -> None:
    assert ok(*CASES[name]) == (PINNED / f"{name}.txt").read_text(encoding="utf-8")
    assert ok("--lang", "en", *CASES[name]) == ok(*CASES[name])


def test_the_english_statistics_are_what_they_were(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = stats_env(tmp_path, monkeypatch)
    assert run(env, "stats") == (PINNED / "stats.txt").read_text(encoding="utf-8")
    assert run({**env, "HOTDICE_DATA_DIR": str(tmp_path / "empty")}, "stats") == (PINNED / "stats-empty.txt").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_french_no_english_words_are_left(name: str) -> None:
    text = ok("--lang", "fr", *CASES[name])
    assert english_left(text) == [], text
    assert text != ok(*CASES[name])


def test_french_figures_have_the_french_decimal_sign() -> None:
    assert "55,4\u00a0% (0,554468)" in ok("--lang", "fr", *CASES["solve-two"])
    assert "5,942" in ok("--lang", "fr", *CASES["solve-solo"])  # expected turns, the French decimal sign
    assert "92,9\u00a0% – 100,0\u00a0%" in ok("--lang", "fr", *CASES["simulate"])
    roll = ok("--lang", "fr", *CASES["advise-roll"])
    assert "mettre 5 de côté, puis relancer" in roll and "55,7\u00a0% de chances de gagner" in roll
    assert "-0,80\u00a0%" in roll
    assert "1 dé\u00a0: relancer ou" in ok(
        "--lang", "fr", "advise", "--scores", "0", "--turn", "300", "-d", "1", "--rules", "farkle,target=3000"
    )


@pytest.mark.parametrize("name", ["simulate", "solve-two", "solve-solo", "advise-roll", "advise-farkle"])
def test_the_json_is_the_same_in_french(name: str) -> None:
    assert ok("--lang", "fr", *CASES[name], "--json") == ok(*CASES[name], "--json")


def test_the_statistics_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = stats_env(tmp_path, monkeypatch)
    text = run(env, "--lang", "fr", "stats")
    assert english_left(text) == [] and "Parties par mode" in text and "100,0\u00a0%" in text, text
    assert run(env, "--lang", "fr", "stats", "--json") == run(env, "stats", "--json")
    empty = run({**env, "HOTDICE_DATA_DIR": str(tmp_path / "empty")}, "--lang", "fr", "stats")
    assert empty.startswith("Pas encore de partie\u00a0:") and english_left(empty) == []


@pytest.mark.parametrize(
    "args", [("solve", "--players", "3"), ("advise", "--turn", "300"), ("simulate", "-p", "nobody", "-n", "1")]
)
def test_bad_input_is_the_same_one_line_in_french(args: tuple[str, ...]) -> None:
    from tests.test_cli import hotdice

    french, english = hotdice("--lang", "fr", *args), hotdice(*args)
    assert french.returncode == english.returncode == 2 and french.stdout == ""
    assert french.stderr == english.stderr and french.stderr.count("\n") == 1


def test_the_english_knob_meanings_are_the_librarys() -> None:
    """The catalogue's English of a knob is the library's help of it (``rules --help`` prints the latter)."""
    from hotdice import i18n
    from hotdice.game.rules import KNOBS

    assert {k.name: i18n.catalog("en")[f"cli.knob.{k.name}"] for k in KNOBS} == {k.name: k.help for k in KNOBS}


def test_the_solvers_refusal_is_worded_in_the_users_language() -> None:
    """Why Hard cannot solve some rules is worded from its bounds: the English the library's, the French all French."""
    from hotdice.analysis.solver import MAX_PENALTY_TARGET, MAX_TARGET, refusal
    from tests.test_cli import hotdice

    for rules in ("farkle,target=20000", "farkle,three_farkles=500"):
        reason = refusal(Rules.parse(rules))
        assert reason is not None
        english, french = hotdice("solve", "--rules", rules), hotdice("--lang", "fr", "solve", "--rules", rules)
        assert english.returncode == french.returncode == 2 and english.stdout == french.stdout == ""
        assert english.stderr == f"hotdice: error: rules {rules}: {reason}\n"
        bound = MAX_PENALTY_TARGET if reason.penalty else MAX_TARGET
        assert french.stderr.startswith(f"hotdice: error: règles {rules}\u00a0: ")
        assert f"objectif de {bound}" in french.stderr
        assert english_left(french.stderr) == [] and french.stderr.count("\n") == 1
