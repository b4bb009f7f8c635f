"""The terminal: the daily's share text after the official attempt (its plain form, with the par and the
streak; no rank: the terminal has no leaderboard), at 80×24, and not after a later, unofficial attempt; play again as a
rematch, the first seat passed round the table."""

from __future__ import annotations

import asyncio

from hotdice.play.daily_share import PLAIN, daily_par, turn_marks
from tests.tui.test_tui import NOON, data_dir, make_app, menu, play_to_the_end, press, screen_text, settle, table

__all__ = ["data_dir"]


def test_the_official_daily_ends_with_its_share_text() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "daily")
            await press(pilot, "enter")
            screen = table(app)
            await play_to_the_end(pilot, threshold=50)
            text = " ".join(screen_text(app).split())
            marks = " ".join(PLAIN[m] for m in turn_marks(screen.session.game))
            par = f"(par {daily_par(NOON.date()):,})"
            assert "hotdice daily 2025-03-14: " in text and f"points {par}, 1-day streak" in text
            assert f"Turns: {marks}" in text
            await press(pilot, "enter")  # again: unofficial, no share text
            await play_to_the_end(pilot, threshold=50)
            assert "hotdice daily" not in screen_text(app)

    asyncio.run(run())


def test_play_again_passes_the_first_seat_to_the_next_player() -> None:
    async def run() -> None:
        app = make_app("farkle,target=500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "together")
            names = app.screen.query_one("#names")
            names.value = ""
            await pilot.press(*"Ann, Bob, Cy", "enter")
            await settle(pilot)
            firsts = [table(app).session.game.first]
            for _ in range(3):
                await play_to_the_end(pilot, threshold=300)
                await press(pilot, "enter")  # play again: the rematch
                firsts.append(table(app).session.game.first)
            assert firsts == [0, 1, 2, 0]
            assert table(app).session.game.players == ("Ann", "Bob", "Cy")

    asyncio.run(run())
