"""What the game teaches (issue 15): the guided first turn's steps, the quiz's combinations and the drill's
farkle chance, each against a computation of its own."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings

from hotdice.game.engine import EventKind
from hotdice.game.refusals import Code
from hotdice.game.rules import Rules
from hotdice.game.scoring import CombinationKind, SetAside, scorer
from hotdice.play.first_turn import guided_turn
from hotdice.play.training import Drill, ScoringQuestion
from tests.game.test_rules import any_rules

STEPS = [EventKind.ROLL, EventKind.SET_ASIDE, EventKind.ROLL, EventKind.SET_ASIDE, EventKind.FARKLE]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(any_rules())
def test_the_guided_turn_shows_each_step_under_any_rules(rules: Rules) -> None:
    steps = guided_turn(rules)
    assert [s.kind for s in steps] == STEPS
    first, set_aside, second, hot, farkle = steps
    assert len(first.dice) == rules.dice and len(farkle.dice) == rules.dice
    assert len(second.dice) == set_aside.dice_in_hand == rules.dice - len(set_aside.dice) > 0
    total = 0
    for roll, taken in ((first, set_aside), (second, hot)):
        assert not Counter(taken.dice) - Counter(roll.dice)  # set aside from that very roll
        assert taken.points == sum(c.points for c in taken.combinations) == scorer(rules).score(taken.dice)
        total += taken.points
        assert taken.turn_total == total
    assert not set_aside.hot_dice and hot.hot_dice and hot.dice_in_hand == rules.dice
    assert farkle.points == total and scorer(rules).is_farkle(farkle.dice)


@pytest.mark.parametrize(
    ("text", "first_bank", "hot_bank"),
    [
        ("farkle", None, None),
        ("farkle,entry=500", Code.BELOW_ENTRY, None),  # 400 is below the entry, 550 is not
        ("5000", None, Code.HOT_DICE_MUST_ROLL),
        ("5000-fr", Code.BELOW_ENTRY, Code.HOT_DICE_MUST_ROLL),
        ("5000-fr-6", Code.MUST_VALIDATE, Code.HOT_DICE_MUST_ROLL),  # the triple must be validated first
    ],
)
def test_the_guided_turn_says_when_banking_is_refused(
    text: str, first_bank: Code | None, hot_bank: Code | None
) -> None:
    steps = guided_turn(Rules.parse(text))
    assert [None if s.bank is None else s.bank.code for s in (steps[1], steps[3])] == [first_bank, hot_bank]


def test_the_quiz_names_the_combinations_of_the_best_set_aside() -> None:
    farkle = Rules.parse("farkle")
    q = ScoringQuestion(farkle, (1, 1, 1, 5, 2, 3))
    assert [(c.kind, c.dice, c.points) for c in q.combinations] == [
        (CombinationKind.OF_A_KIND, SetAside(1, 1, 1), 1000),
        (CombinationKind.SINGLE, SetAside(5), 50),
    ]
    assert q.rest == (2, 3)
    nothing = ScoringQuestion(farkle, (6, 2, 3, 4, 6, 2))
    assert nothing.combinations == () and nothing.rest == (2, 2, 3, 4, 6, 6)
    straight = ScoringQuestion(farkle, (6, 5, 4, 3, 2, 1))
    assert [(c.kind, c.points) for c in straight.combinations] == [(CombinationKind.STRAIGHT, 1500)]
    assert straight.rest == ()


def _farkles(roll: tuple[int, ...]) -> bool:
    """A farkle under the farkle preset, read off RULES.md's table: no 1, no 5, no three of a face, and with
    six dice neither three pairs nor 1-6 (which has a 1 anyway)."""
    counts = Counter(roll)
    if counts[1] or counts[5] or max(counts.values()) >= 3:
        return False
    return not (len(roll) == 6 and sorted(counts.values()) == [2, 2, 2])


@pytest.mark.parametrize("dice", range(1, 7))
def test_the_drills_farkle_chance_is_the_share_of_rolls_where_nothing_scores(dice: int) -> None:
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    expected = Fraction(sum(map(_farkles, rolls)), len(rolls))
    assert Drill(Rules.parse("farkle"), 300, dice).farkle_chance == expected
