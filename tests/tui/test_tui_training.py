"""The terminal's scoring quiz explains its answer with the combinations of the roll, as the web's does (issue
15): which dice make which combination, worth what, and which dice score nothing — in English and in French."""

from __future__ import annotations

import asyncio

import pytest

from hotdice.game.rules import Rules
from hotdice.play.training import ScoringQuestion
from hotdice.tui.screens.training import TrainingScreen
from tests.tui.test_tui import make_app, menu, press, screen_text, settle

# 1 1 1 5 2 3: three 1s = 1000 and a 5 = 50 (RULES.md's table); 2 and 3 score nothing.
EXPLAINED = {
    "en": ["Right!", "What scores: 1 1 1 → Three 1s = 1,000 · 5 → A 5 = 50", "Nothing else scores (2 3)."],
    "fr": [
        "Juste\u202f!",
        "Ce qui marque\u00a0: 1 1 1 → Trois 1 = 1\u202f000 · 5 → Un 5 = 50",
        "Le reste ne marque rien (2 3).",
    ],
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_quiz_explains_the_answer_with_the_rolls_combinations(lang: str) -> None:
    async def run() -> None:
        app = make_app(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "training")
            screen = app.screen
            assert isinstance(screen, TrainingScreen)
            screen.question = ScoringQuestion(Rules.parse("farkle"), (1, 1, 1, 5, 2, 3))
            screen.draw()
            await press(pilot, "1", "2", "3", "4", "enter")
            shown = screen_text(app)
            for text in EXPLAINED[lang]:
                assert text in shown, (text, shown)

    asyncio.run(run())
