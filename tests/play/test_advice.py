"""A position set up by hand for the coach (:mod:`hotdice.play.advice`): the dice given are rolled through the
engine, which tells a farkle, a bust or the win; otherwise the player to act decides."""

from __future__ import annotations

import pytest

from hotdice.game.engine import CHANCE, ROLL, Phase
from hotdice.game.position import position
from hotdice.game.rules import Rules
from hotdice.play.advice import NobodyToAct, ask


@pytest.mark.parametrize(
    ("text", "scores", "roll", "ended"),
    [
        ("farkle", (0,), (2, 3, 4, 6, 2, 3), "farkle"),
        ("5000-fr", (4900, 0), (1, 1, 2, 3, 4), "bust"),  # 200 would pass the exact target
        ("5000-fr", (0, 0), (1, 1, 1, 1, 1), "win"),  # five 1s in one roll win at once
        ("farkle", (0, 0), (1, 2, 3, 4, 6, 6), None),
    ],
)
def test_the_dice_given_end_the_turn_or_leave_a_choice(text: str, scores: tuple[int, ...],
                                                       roll: tuple[int, ...], ended: str | None) -> None:
    game = position(Rules.parse(text), scores)
    asked = ask(game, roll)
    assert (asked.ended, asked.roll, asked.scores, asked.turn_total) == (ended, roll, scores, 0)
    assert asked.dice_in_hand == len(roll)
    assert asked.game is game and (game.phase is Phase.SET_ASIDE) == (ended is None)


def test_without_dice_the_player_rolls_or_banks_and_awaited_dice_must_be_given() -> None:
    game = position(Rules.parse("farkle"), (1000, 0), turn_total=300, dice_in_hand=3)
    asked = ask(game, None)
    assert (asked.ended, asked.roll, asked.turn_total, asked.dice_in_hand) == (None, None, 300, 3)
    game.apply(ROLL)
    assert game.to_act is CHANCE
    with pytest.raises(NobodyToAct) as refused:
        ask(game, None)
    assert refused.value.rolling
    assert ask(game, (5, 2, 3)).game.phase is Phase.SET_ASIDE and game.roll == (5, 2, 3)
