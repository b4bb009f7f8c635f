"""The daily's share text: one mark per turn from a game played on fixed dice (each kind of turn once), and
its wording in both languages, which never shows a die."""

from __future__ import annotations

import re

import pytest

from hotdice.game.dice import FixedDice
from hotdice.game.engine import Game
from hotdice.game.variants import find_variant
from hotdice.i18n import LANGUAGES, Translator
from hotdice.play.daily_share import EMOJI, PLAIN, DailyShare, Mark, turn_marks

ROLLS = [(1, 1, 1, 5, 5, 2), (2, 3, 4, 6, 2, 3), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6, 6)]
MOVES = ["roll", "11155", "bank", "roll", "roll", "123456", "roll", "1", "bank", "roll", "5", "bank"]


def four_turns() -> Game:
    """1,100 banked (1,000 + 100); a farkle; a straight (hot dice) then a 1; a single 5."""
    game = Game(find_variant("farkle").rules, players=("a",), turn_limit=4)
    dice = FixedDice(ROLLS)
    for move in MOVES:
        game.play(move, dice)
    assert game.outcome is not None
    return game


def test_one_mark_per_turn_in_the_documented_order() -> None:
    assert turn_marks(four_turns()) == [Mark.BIG_BANK, Mark.FARKLE, Mark.HOT_DICE, Mark.BANKED]


def test_a_second_seats_turns_are_not_the_firsts() -> None:
    game = Game(find_variant("farkle").rules, players=("a", "b"), turn_limit=1)
    dice = FixedDice([(2, 3, 4, 6, 2, 3), (5, 2, 3, 4, 6, 6)])
    for move in ["roll", "roll", "5", "bank"]:
        game.play(move, dice)
    assert turn_marks(game, 0) == [Mark.FARKLE] and turn_marks(game, 1) == [Mark.BANKED]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_text_says_the_figures_and_no_die(lang: str) -> None:
    t = Translator(lang)
    shared = DailyShare("2026-12-04", 2750, 3100, 2, 17, 5, turn_marks(four_turns()))
    text, plain = shared.text(t), shared.plain(t)
    assert text.splitlines()[1] == "⭐🟥🔥🟩"
    assert "2026-12-04" in text and t.number(2750) in text and t.number(3100) in text and "17" in text
    assert text.splitlines()[0] == plain.splitlines()[0]
    assert " ".join(PLAIN[m] for m in shared.marks) in plain.splitlines()[1]
    assert not set(plain) & set("".join(EMOJI.values()))  # no emoji in the plain form
    assert plain.isascii() or lang == "fr"
    for die_faces in ("111", "123456", "55"):  # no roll shown
        assert die_faces not in re.sub(r"\d{4}-\d{2}-\d{2}", "", text + plain)
