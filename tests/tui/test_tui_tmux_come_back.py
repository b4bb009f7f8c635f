"""The real ``hotdice play`` in tmux at 80×24 (issue 25): Your games listing and resuming, the rematch after a
game, and the official daily's share text; games are played out by :func:`play_out`, whatever the live dice."""

from __future__ import annotations

import json
import random
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hotdice.game.record import record_of
from hotdice.game.rules import Rules
from hotdice.i18n import Translator
from hotdice.play.daily import DEFAULT_DAILY_KEY
from hotdice.play.daily_share import daily_par
from hotdice.play.modes import solo
from hotdice.play.players import make_player, play_game
from hotdice.store import Store
from hotdice.store.stats import record_game
from tests.tui.test_tui_tmux import HOTDICE, Terminal, environment, play_out

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]


def inside(screen: str) -> None:
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), screen


def test_your_games_lists_the_daily_a_saved_game_and_a_finished_one_then_resumes_and_reviews(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(tmp_path))
    finished = solo(Rules.parse("farkle"), "You")
    assert finished.dice is not None
    play_game(finished.game, [make_player("greedy:300", random.Random(3))], finished.dice)
    with Store() as store:
        record_game(store, finished.game, player=0, mode="solo", opponent=None,
                    record_json=json.dumps(record_of(finished.game, mode="solo").to_json()))
    term = Terminal(f"{HOTDICE} play --lang en --rules farkle", environment(tmp_path))
    try:
        term.wait_for("Your games: waiting for you, in progress, finished")
        term.keys("Enter")  # Solo
        term.wait_for("Turn 1/10")
        term.keys("r")
        rolled = re.search(r"You: rolls [1-6 ]+\d", term.wait_for("rolls "))
        assert rolled is not None
        term.keys("q")  # saved
        term.wait_for("Resume the saved game")
        term.keys("End", "Up", "Up", "Up", "Up", "Enter")  # Your games, above training, statistics, settings, quit
        yours = term.wait_for("a-i play or resume · 1-9 review")
        inside(yours)
        assert "Waiting for you" in yours and "a  Today’s daily game: not played yet" in yours
        assert "In progress" in yours and "b  Solo, ten turns: 0" in yours
        day = Translator("en").date(datetime.now(UTC).date())
        score = f"{finished.game.scores[0]:,}"
        assert "Finished" in yours and re.search(rf"1  {day}  Solo, ten turns  +{score}\n", yours), yours
        term.keys("1")
        review = term.wait_for("expected final points after each roll and decision")
        inside(review)
        term.keys("Escape")
        term.wait_for("a-i play or resume")
        term.keys("b")  # one key resumes the saved game: its roll is in the log
        assert "Solo, ten turns" in term.wait_for(rolled[0])
    finally:
        term.close()


def test_enter_on_the_result_is_the_rematch_with_the_next_player_first(tmp_path: Path) -> None:
    term = Terminal(f"{HOTDICE} play --lang en --rules farkle,target=500", environment(tmp_path))
    try:
        term.wait_for("Play together")
        term.keys(*["Down"] * 5, "Enter")  # Play together: the names offered, "You, Player 2"
        term.wait_for("Players' names")
        term.keys("Enter")
        term.wait_for("Pass the keyboard to You")
        over = play_out(term, "Enter rematch · R review · Esc menu")
        inside(over)
        assert "Game over" in over
        term.keys("Enter")
        again = term.wait_for("Pass the keyboard to Player 2")
        assert "Game over" not in again and "Play together" in again
    finally:
        term.close()


def test_the_official_daily_ends_with_its_share_text(tmp_path: Path) -> None:
    term = Terminal(f"{HOTDICE} play --lang en", environment(tmp_path))
    try:
        term.wait_for("Daily game: ten turns")
        term.keys(*["Down"] * 6, "Enter")  # Daily game: asked first, it is the official attempt
        term.wait_for("official attempt")
        term.keys("Enter")
        term.wait_for("Turn 1/10")
        over = play_out(term, "Enter play again (unofficial)")
        inside(over)
        flat = " ".join(over.replace("█", " ").split())
        today = datetime.now(UTC).date()
        par = daily_par(today, DEFAULT_DAILY_KEY)  # the terminal's environment has no key of its own
        assert re.search(rf"hotdice daily {today.isoformat()}: [\d,]+ points \(par {par:,}\), 1-day streak", flat), over
        marks = re.search(r"Turns: ((?:[ox*!] ){9}[ox*!]) ", flat)
        assert marks is not None, over
        assert "(o banked, * bank of 1,000 or more, x farkle, ! hot dice)" in flat
    finally:
        term.close()
