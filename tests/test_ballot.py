"""Seed 000 calls a roll of five dice that scores nothing a « ballot »: French says so wherever the game's events
are told (the transcript, the pages' log and moment, the terminal's log) and `hotdice score` of five dice; English
keeps its one word, farkle (the goldens and the English JSON unchanged)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hotdice.game.engine import EventKind, Game
from hotdice.game.record import record_of, told
from hotdice.game.rules import Rules
from hotdice.game.told import told_event
from hotdice.i18n import Translator
from hotdice.i18n.told import said, tell
from hotdice.play.view import TableView
from hotdice.tui.i18n import Translator as TuiTranslator


def farkled(rules: str, roll: tuple[int, ...], *before: tuple[int, ...]) -> Game:
    """A game of two whose first player rolls ``before`` (setting aside the best each time) then ``roll``."""
    game = Game(Rules.parse(rules), ["Ann", "Bob"])
    for dice in (*before, roll):
        game.apply("roll")
        game.apply_roll(dice)
        if game.options():
            game.apply(game.options()[0].set_aside)
    return game


@pytest.mark.parametrize(("rules", "roll", "before", "code"), [
    ("5000-fr", (2, 3, 4, 6, 6), (), "ballot"),  # five dice, nothing scores
    ("5000", (2, 3, 4, 6, 6), (), "ballot"),
    ("5000-fr-6", (2, 3, 4, 6, 6), ((1, 2, 3, 4, 6, 6),), "ballot_lost"),  # five dice left after a 1
    ("farkle", (2, 2, 3, 4, 6, 6), (), "farkle"),  # six dice: a farkle
    ("5000-fr", (2, 3, 4, 6), ((1, 2, 3, 4, 6),), "farkle_lost"),  # four dice: a farkle
])
def test_a_five_dice_roll_that_scores_nothing_is_told_as_a_ballot(rules: str, roll: tuple[int, ...],
                                                                   before: tuple[tuple[int, ...], ...],
                                                                   code: str) -> None:
    game = farkled(rules, roll, *before)
    farkle = next(e for e in game.events if e.kind is EventKind.FARKLE)
    assert farkle.dice == roll
    assert told_event(game, farkle).code == code


def test_french_says_ballot_and_english_farkle_in_each_telling() -> None:
    game = farkled("5000-fr-6", (2, 3, 4, 6, 6), (1, 2, 3, 4, 6, 6))
    facts = told(record_of(game))
    english, french = tell(Translator("en"), facts), tell(Translator("fr"), facts)
    assert "  rolls 2 3 4 6 6: farkle, loses 100" in english
    assert "ballot, perd 100" in " ".join(french) and "farkle" not in " ".join(french).lower()
    entry = next(e for e in TableView.of(game).events if e.kind is EventKind.FARKLE)
    assert entry.key == "log.ballot_lost"
    assert said(Translator("fr"), entry.key, entry.values) == "Ballot\u202f! 100 perdus"
    assert said(Translator("en"), entry.key, entry.values) == "Farkle! 100 lost"
    assert said(TuiTranslator("fr"), entry.key, entry.values).endswith("BALLOT\u202f! 100 perdus")
    assert Translator("fr")("moment.ballot") == "Ballot\u202f!" and Translator("en")("moment.ballot") == "Farkle!"


@pytest.mark.slow
def test_score_of_five_dice_says_ballot_in_french() -> None:
    def score(lang: str, *dice: str) -> str:
        command = [sys.executable, "-m", "hotdice.cli", "--lang", lang, "score", "--rules", "5000-fr", *dice]
        run = subprocess.run(command, capture_output=True, text=True, check=True)
        return " ".join(run.stdout.split())

    assert "ballot" in score("fr", "23466")
    assert "farkle — nothing scores" in score("en", "23466")
    assert "ballot" not in score("fr", "2346")
