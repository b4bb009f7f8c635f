"""A position from a few numbers (:func:`hotdice.game.position.position`): reached through the engine, and
refused, with the rule that forbids it, where no game reaches it."""

from __future__ import annotations

import pytest

from hotdice.game.engine import Phase
from hotdice.game.position import position
from hotdice.game.rules import Rules


@pytest.mark.parametrize(
    ("text", "scores", "total", "dice"),
    [
        ("farkle", (3000, 4500), 350, 2),
        ("farkle", (0, 4500, 800), 0, 6),
        ("farkle", (1200,), 1500, 6),  # after hot dice: all six back
        ("5000", (350, 0), 150, 3),
        ("5000-fr,rule_4900=yes", (4800, 4850), 50, 4),
        ("5000-fr", (4000, 3000), 400, 5),  # set_aside=all: no single 5 rolled with 2 3 4 6 (a straight)
        ("5000-fr", (750, 0), 50, 4),
        ("5000-fr-6", (700, 1000), 400, 2),
    ],
)
def test_position_is_reached_through_the_engine(text: str, scores: tuple[int, ...], total: int, dice: int) -> None:
    rules = Rules.parse(text)
    game = position(rules, scores, turn_total=total, dice_in_hand=dice)
    assert game.scores == scores
    assert game.entered == tuple(s > 0 or rules.entry == 0 for s in scores)
    assert (game.to_act, game.phase, game.turn_total, game.dice_in_hand) == (0, Phase.DECIDE, total, dice)
    assert game.hot_dice == (total > 0 and dice == rules.dice)
    assert game.legal_actions()


@pytest.mark.parametrize(
    ("text", "scores", "total", "dice", "words"),
    [
        ("5000-fr,rule_4900=yes", (4950, 0), 0, 5, "rule_4900"),
        ("5000", (200, 0), 0, 5, "below the entry of 350"),  # a bank below the entry is not recorded
        ("5000-fr", (300, 0), 0, 5, "entry=750"),  # below the entry the player must keep rolling
        ("5000-fr-6", (700, 800), 0, 6, ""),
        ("farkle", (100, 0), 100, 2, "turn total of 100 and leave 2"),  # four dice score at least 200
        ("farkle", (10000, 0), 0, 6, "10000 points with the game still on"),
        ("farkle", (75, 0), 0, 6, "multiple of 50"),
        ("farkle", (0, 0), 0, 3, "a turn starts with every die in hand"),
    ],
)
def test_position_refuses_what_no_game_reaches(text: str, scores: tuple[int, ...], total: int, dice: int,
                                               words: str) -> None:
    rules = Rules.parse(text)
    if not words:  # a legal position, for contrast
        position(rules, scores, turn_total=total, dice_in_hand=dice)
        return
    with pytest.raises(ValueError, match=words):
        position(rules, scores, turn_total=total, dice_in_hand=dice)
