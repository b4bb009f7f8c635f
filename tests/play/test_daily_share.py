"""The daily's share text: one mark per turn from a game played on fixed dice (each kind of turn once), and
its wording in both languages, which never shows a die."""

from __future__ import annotations

import re
from datetime import date

import pytest

from hotdice.game.dice import FixedDice
from hotdice.game.engine import Game
from hotdice.game.variants import find_variant
from hotdice.i18n import LANGUAGES, Translator
from hotdice.play.daily_share import EMOJI, PLAIN, DailyShare, Mark, daily_par, turn_marks

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


def test_the_par_comes_from_the_days_dice() -> None:
    """Hard on the dice of the day's key: the same for everyone with that key, another for other dice."""
    day = date(2026, 12, 4)
    par = daily_par(day, b"one")
    assert par == daily_par(day, b"one") and par % 50 == 0
    assert len({par, daily_par(day, b"two"), daily_par(day, b"three"), daily_par(date(2026, 12, 5), b"one")}) > 1


@pytest.mark.parametrize(("lang", "head"), [
    ("en", "hotdice daily 2026-12-04: 2,750 points (par 3,100), 5-day streak"),
    ("fr", "hotdice du jour 2026-12-04\u00a0: 2\u202f750 points (référence 3\u202f100), série de 5 jours"),
])
def test_without_a_rank_the_head_says_the_par_and_the_streak(lang: str, head: str) -> None:
    shared = DailyShare("2026-12-04", 2750, 3100, None, None, 5, turn_marks(four_turns()))
    assert shared.plain(Translator(lang)).splitlines()[0] == head
