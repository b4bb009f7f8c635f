"""``hotdice review RECORD``: the chart fits 80 columns (a table below 50), the decisions and the summary in English
and in French with no English left, ``--json`` the review's own JSON (the same in both languages, from a file or
stdin), and a record that does not read is one line on stderr with exit 2."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from hotdice.analysis.game_review import game_review
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.record import Record, record_of
from hotdice.game.rules import Rules
from hotdice.i18n import Translator
from hotdice.i18n.review import CHART_MIN_WIDTH, CHART_ROWS, MARKS, review_lines
from hotdice.play.players import make_player, play_game
from tests.french_support import english_left


def record(text: str, specs: tuple[str, ...], limit: int | None, seed: int = 3) -> Record:
    rng = random.Random(seed)
    game = Game(Rules.parse(text), tuple(s.title() for s in specs), turn_limit=limit)
    play_game(game, [make_player(s, rng) for s in specs], SeededDice(bytes([seed])))
    return record_of(game)


@pytest.fixture(scope="module")
def versus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "versus.json"
    path.write_text(json.dumps(record("farkle", ("easy", "hard"), None).to_json()))
    return path


def run(*args: str, columns: int = 80, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "24", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", "hotdice.cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


@pytest.mark.slow
def test_the_review_in_english_fits_80_columns(versus: Path) -> None:
    proc = run("review", str(versus))
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == "Review: Easy against Hard (farkle)"
    chart = [line for line in lines if "│" in line or "└" in line]
    assert len(chart) == CHART_ROWS + 1 and all(len(line) <= 80 for line in chart)
    assert chart[0].lstrip().startswith("100.0 %") and chart[-2].lstrip().startswith("0.0 %")
    review = game_review(Record.from_json(versus.read_text()))
    marked = [s for s in review.steps if s.label in MARKS and s.seat == 0]
    assert sum(chart[-1].count(m) for m in MARKS.values()) <= len(marked)
    assert ("Decisions to look at:" in lines) == bool([s for s in review.steps if s.label in MARKS])
    summary = lines[lines.index(next(x for x in lines if x.startswith("Summary"))) + 2]
    easy = review.players[0]
    assert summary.startswith("Easy") and f"{100 * easy.start:.1f} %" in summary
    assert (f"{easy.accuracy:.1f}" if easy.accuracy is not None else "—") in summary


def test_a_blunder_is_told_with_what_was_best_and_its_loss() -> None:
    game = Game(Rules.parse("farkle"), ("Ann", "Bob"))
    game.apply("roll")
    game.apply_roll((1, 1, 1, 1, 5, 5))
    game.apply_decision("set aside 5, then bank")
    review = game_review(game)
    step = review.steps[1]
    assert step.label == "blunder"
    text = "\n".join(review_lines(Translator("en"), review, width=80))
    assert (f"× blunder, turn 1, Ann (scores 0-0, turn total 0, dice 1 1 1 1 5 5): played set aside 5, then bank, "
            f"best set aside 111155, then roll (-{100 * step.loss:.2f} %)") in text
    french = "\n".join(review_lines(Translator("fr"), review, width=80))
    assert "× gaffe, tour 1, Ann" in french and f"(-{100 * step.loss:.2f}\u00a0%)".replace(".", ",") in french


@pytest.mark.parametrize("width", [20, 40, CHART_MIN_WIDTH - 1])
def test_below_50_columns_a_table_replaces_the_chart(width: int) -> None:
    review = game_review(record("5000", ("medium",), None))
    lines = review_lines(Translator("en"), review, width=width)
    assert not any("│" in line for line in lines)
    head = lines.index(next(x for x in lines if x.split() == ["turn", "value"]))
    assert lines[head + 1].split()[0] == "1" and lines[head + 1].endswith("turns")


@pytest.mark.parametrize("width", [CHART_MIN_WIDTH, 60, 80, 132])
@pytest.mark.parametrize(("rules", "specs", "limit"), [("farkle", ("easy",), 10), ("5000", ("medium",), None),
                                                      ("farkle", ("easy", "medium", "hard"), None)])
def test_the_chart_fits_its_width(width: int, rules: str, specs: tuple[str, ...], limit: int | None) -> None:
    review = game_review(record(rules, specs, limit))
    lines = review_lines(Translator("fr"), review, width=width)
    chart = [line for line in lines if "│" in line or "└" in line]
    assert len(chart) == CHART_ROWS + 1 and all(len(line) <= width for line in chart)
    assert (len(specs) == 3) == any("approximation" in line for line in lines)


@pytest.mark.slow
def test_in_french_no_english_is_left(versus: Path) -> None:
    proc = run("review", str(versus), "--lang", "fr")
    assert proc.returncode == 0, proc.stderr
    assert english_left(proc.stdout) == [], proc.stdout
    assert proc.stdout.startswith("Analyse\u00a0: Easy contre Hard (farkle)") and "Bilan" in proc.stdout
    assert run("--lang", "fr", "review", str(versus)).stdout == proc.stdout


@pytest.mark.slow
def test_the_json_is_the_reviews_in_every_language_and_from_stdin(versus: Path) -> None:
    english = run("review", str(versus), "--json")
    assert english.returncode == 0 and english.stderr == ""
    expected = game_review(Record.from_json(versus.read_text())).json_text()
    assert english.stdout == expected + "\n"
    assert run("review", str(versus), "--json", "--lang", "fr").stdout == english.stdout
    assert run("review", "-", "--json", stdin=versus.read_text()).stdout == english.stdout
    data = json.loads(english.stdout)
    assert {"measure", "players", "steps"} <= data.keys() and len(data["players"]) == 2
    assert {"seat", "name", "start", "end", "luck", "skill_lost", "accuracy", "labels"} <= data["players"][0].keys()
    assert {"seat", "kind", "before", "after", "played", "best", "loss", "label"} <= data["steps"][0].keys()


@pytest.mark.slow
def test_player_shows_one_players_decisions(versus: Path) -> None:
    hard = run("review", str(versus), "--player", "2").stdout
    assert "Hard's chance to win" in hard and "No inaccuracy, mistake or blunder." in hard


@pytest.mark.slow
@pytest.mark.parametrize(("args", "stdin", "english"), [
    (("review", "/no/such/record.json"), "", "hotdice: error: cannot read /no/such/record.json: "),
    (("review", "-"), "not json", "hotdice: error: -: not a game record: invalid JSON"),
    (("review", "-"), '{"version": 1}', "hotdice: error: -: not a game record: missing field(s)"),
    (("review", "-", "--player", "3"), None, "hotdice: error: --player 3: the game has players 1 to 2"),
    (("review", "-", "--lang", "de"), None, "hotdice: error: unknown language"),
])
def test_bad_input_is_one_line_and_exit_2(versus: Path, args: tuple[str, ...], stdin: str | None,
                                          english: str) -> None:
    proc = run(*args, stdin=versus.read_text() if stdin is None else stdin)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(english), proc.stderr
    if "--lang" not in args:
        french = run(*args, "--lang", "fr", stdin=versus.read_text() if stdin is None else stdin)
        assert french.returncode == 2 and french.stderr.count("\n") == 1
        assert english_left(french.stderr) == [], french.stderr


def test_an_altered_record_is_refused(versus: Path) -> None:
    data = json.loads(versus.read_text())
    data["result"]["scores"] = [0, 0]
    proc = run("review", "-", stdin=json.dumps(data))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
