"""The terminal game: whole seeded games played through key presses, snapshots of the main screens, French.

Games are played by pressing keys only: the test reads the table (the engine's state, as the player reads
the screen) to decide which dice to pick, then presses 1-6, r and b. Dice are seeded and the computer plays
without pauses, so every game is the same on every run.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import random
import re
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from textual import events

from hotdice.analysis.coach import advise
from hotdice.game.engine import Phase, Roll, bank_refusal
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from hotdice.game.variants import VARIANTS
from hotdice.play.modes import Challenge, Mode
from hotdice.play.names import DefaultName
from hotdice.play.players import PLAYERS
from hotdice.store import Store
from hotdice.tui.app import HotDiceApp
from hotdice.tui.i18n import LANGUAGES, Translator, catalog, detect_language
from hotdice.tui.screens.dialogs import GameOverScreen, combination_name
from hotdice.tui.screens.menu import MenuScreen
from hotdice.tui.screens.settings import SettingsScreen
from hotdice.tui.screens.table import TableScreen
from hotdice.tui.screens.training import TrainingScreen
from hotdice.tui.session import GameKind, SaveError, Session, computer_spec, save_path, saved_games
from tests.french_support import english_left

SNAPSHOTS = Path(__file__).parent / "snapshots_tui"
UPDATE = os.environ.get("HOTDICE_UPDATE_SNAPSHOTS") == "1"
NOON = datetime(2025, 3, 14, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Statistics, settings and the saved game of each test in a folder of its own; English by default."""
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield tmp_path


def make_app(rules: str = "farkle", lang: str = "en", **kwargs: object) -> HotDiceApp:
    options: dict[str, object] = {
        "dice_seed": b"tui tests", "pace": 0.0, "now": NOON, "rng": random.Random(7), "warm": False
    }
    options.update(kwargs)
    return HotDiceApp(rules=Rules.parse(rules), lang=lang, **options)  # type: ignore[arg-type]


def screen_text(app: HotDiceApp) -> str:
    """The screen as plain text, as a terminal shows it (the SVG screenshot's content without styles)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"snapshot {path.name} was missing and has been written: check it and run again")
    assert text + "\n" == path.read_text(encoding="utf-8"), f"screen differs from {path.name}:\n{text}"


async def settle(pilot: object) -> None:
    """Let the app draw and every worker (the computer, the coach) finish."""
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


_CHARS = {"space": " ", "enter": "\r", "escape": "\x1b", "tab": "\t", "question_mark": "?", "comma": ","}


async def press(pilot: object, *keys: str) -> None:
    """Press keys as the terminal sends them, in order, then let the app settle.

    The keys go to the app as one batch of key events (Pilot's ``press`` idles after every key, which would
    make whole games take minutes); they are handled one after the other, as typed.
    """
    app = pilot.app  # type: ignore[attr-defined]
    for key in keys:
        name = {" ": "space", ",": "comma", "?": "question_mark"}.get(key, key)
        char = _CHARS.get(name, name if len(name) == 1 else None)
        app.post_message(events.Key(name, char))
    await settle(pilot)


async def menu(pilot: object, item: str) -> None:
    """Choose a menu item by moving down to it and pressing Enter, as a player does."""
    app = pilot.app  # type: ignore[attr-defined]
    assert isinstance(app.screen, MenuScreen)
    options = app.screen.query_one("#menu-options")
    ids = [o.id for o in options.options]
    await press(pilot, "home", *["down"] * ids.index(item), "enter")


def table(app: HotDiceApp) -> TableScreen:
    screens = [s for s in app.screen_stack if isinstance(s, TableScreen)]
    assert screens, f"no table on screen: {app.screen_stack}"
    return screens[-1]


def keys_for(screen: TableScreen, threshold: int, best_key: bool = False) -> list[str]:
    """The keys a simple player presses now: pick the best set-aside (its digits, or ``best_key``: a), bank from
    ``threshold``, else roll."""
    game = screen.session.game
    if game.phase is Phase.SET_ASIDE:
        assert game.roll is not None
        best = game.options()[0]
        left, keys = list(best.set_aside), []
        for i, face in enumerate(game.roll):
            if face in left:
                left.remove(face)
                keys.append(str(i + 1))
        banks = game.turn_total + best.points >= threshold and game.why_not_bank_after(best) is None
        return [*(["a"] if best_key else keys), "b" if banks else "r"]
    return ["b" if game.turn_total >= threshold and game.why_not_bank() is None else "r"]


async def play_to_the_end(pilot: object, threshold: int = 350, limit: int = 3000,
                          best_key: bool = False) -> TableScreen:
    app = pilot.app  # type: ignore[attr-defined]
    screen = table(app)
    for _ in range(limit):
        if screen.session.game.outcome is not None:
            break
        assert screen.human_to_act(), "the human should be asked to act"
        await press(pilot, *keys_for(screen, threshold, best_key))
    assert screen.session.game.outcome is not None, "the game did not end"
    return screen


def recorded() -> list[tuple[str, int, bool, str | None]]:
    from hotdice.store import GameResult

    with Store() as store, store.session() as session:
        return [(g.mode, g.score, g.official, g.opponent) for g in session.query(GameResult).order_by(GameResult.id)]


# -- whole games through the keys ----------------------------------------------------------------


def test_solo_ten_turns_played_with_keys() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = await play_to_the_end(pilot)
            game = screen.session.game
            assert game.turns_played == (10,)
            assert isinstance(app.screen, GameOverScreen)
            text = screen_text(app)
            assert "Game over" in text and "in 10 turns" in text and "Recorded in your statistics" in text
            assert "turns turns" not in text
            assert recorded() == [("solo", game.scores[0], True, None)]
            # Every roll of the game is the seeded one, and the log told each of them.
            rolls = [step for step in game.history if isinstance(step.move, Roll)]
            assert len(rolls) >= 10
            await press(pilot, "escape")
            assert isinstance(app.screen, MenuScreen)
            assert not save_path("solo").exists()

    asyncio.run(run())


def test_r_on_the_result_shows_the_games_review_in_80_by_24() -> None:
    """The review of the game just played, the same object as ``hotdice review``: its chart fits the terminal."""
    from hotdice.analysis.coach import measure_now
    from hotdice.analysis.game_review import game_review
    from hotdice.tui.screens.review import ReviewScreen

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = await play_to_the_end(pilot)
            assert isinstance(app.screen, GameOverScreen) and "R review" in screen_text(app)
            await press(pilot, "r")
            assert isinstance(app.screen, ReviewScreen)
            text = screen_text(app)
            assert "expected final points after each roll and decision" in text and "│" in text
            game = screen.session.game
            review = game_review(game, measure_now(game.root())[0])
            assert review.measure == "points" and review.players[0].end == game.scores[0]
            await press(pilot, "escape")
            assert isinstance(app.screen, GameOverScreen)

    asyncio.run(run())


def test_key_a_sets_aside_the_best_and_plays_as_picking_its_dice() -> None:
    """The same seeded ten turns, each set-aside by key a instead of its dice: the same game, move for move."""

    async def run(best_key: bool) -> list[str]:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = table(app)
            assert "a best" in screen_text(app)
            if best_key:  # one press: the best set-aside is on the tray, the roll or the bank follows
                await press(pilot, "r")
                best = screen.view().best
                assert best is not None and best == str(screen.session.game.options()[0].set_aside)
                await press(pilot, "a")
                assert screen.session.game.set_asides[-1] == SetAside.parse(best)
                assert screen.session.game.phase is Phase.DECIDE
            screen = await play_to_the_end(pilot, best_key=best_key)
            return [str(step) for step in screen.session.game.history]

    assert asyncio.run(run(True)) == asyncio.run(run(False))


def test_against_the_computer_plays_its_turns_step_by_step() -> None:
    async def run() -> None:
        app = make_app("farkle,target=2000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            screen = await play_to_the_end(pilot)
            session = screen.session
            game = session.game
            assert session.mode is Mode.VERSUS and session.computer is not None
            assert session.computer.name == computer_spec("easy")
            assert game.turns_played[1] >= 1, "the computer played"
            log = "\n".join(str(line.text) for line in screen.query_one("#log").lines)
            assert "Computer: rolls" in log
            assert any(line.startswith(("Computer: banks", "Computer: FARKLE")) for line in log.splitlines())
            text = screen_text(app)
            assert "You win!" in text or "Computer wins" in text
            assert recorded() == [("versus", game.scores[0], True, session.computer.name)]

    asyncio.run(run())


def test_the_log_tells_the_scores_and_turn_totals_the_game_had() -> None:
    """Each bank's score in the log is the sum of that player's banks; each turn total, of the turn's set-asides."""
    async def run() -> None:
        app = make_app("farkle,target=2000")
        async with app.run_test(size=(200, 60)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            screen = await play_to_the_end(pilot)
            game = screen.session.game
            log = [str(line.text) for line in screen.query_one("#log").lines]
            scores: dict[str, int] = {}
            total = 0
            number = r"(\d{1,3}(?:,\d{3})*)"  # 2,250

            def read(text: str) -> int:
                return int(text.replace(",", ""))

            for line in log:
                if found := re.fullmatch(rf"(\w+): banks {number}, score {number}", line):
                    scores[found[1]] = scores.get(found[1], 0) + read(found[2])
                    assert scores[found[1]] == read(found[3]), line
                elif found := re.fullmatch(rf"\w+: sets aside [\d ]+ for {number} \(turn total {number}\)", line):
                    total += read(found[1])
                    assert total == read(found[2]), line
                elif line.startswith("—"):
                    total = 0
            assert sorted(scores.values()) == sorted(s for s in game.scores if s)

    asyncio.run(run())


def test_computer_turn_is_paced_and_skippable() -> None:
    async def run() -> None:
        app = make_app("farkle,target=2000", pace=30.0)  # far slower than the test: only a skip ends it
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-medium")
            screen = table(app)
            while screen.session.game.current == 0:
                await pilot.press(*keys_for(screen, 50))  # no waiting for the computer: it would take minutes
                await pilot.pause()
            assert screen.computer_running
            assert "space skip" in screen_text(app)
            await pilot.press("space")
            await settle(pilot)
            assert not screen.computer_running
            assert screen.session.game.current == 0 or screen.session.game.outcome is not None

    asyncio.run(run())


def test_play_together_with_roll_off() -> None:
    async def run() -> None:
        app = make_app("farkle,target=1500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "together")
            names = app.screen.query_one("#names")
            names.value = ""
            await pilot.press(*"Ann, Bob, Cy", "tab", "space", "shift+tab", "enter")
            await settle(pilot)
            screen = table(app)
            game = screen.session.game
            assert game.players == ("Ann", "Bob", "Cy")
            off = screen.session.setup.roll_off
            assert off is not None and game.first == off.first
            log = "\n".join(str(line.text) for line in screen.query_one("#log").lines)
            assert "Roll for first player" in log and f"{game.players[off.first]} starts" in log
            await play_to_the_end(pilot, threshold=300)
            assert len(recorded()) == 1 and recorded()[0][0] == "together"
            text = screen_text(app)
            assert "wins!" in text or "share the win" in text

    asyncio.run(run())


def test_daily_is_official_once_then_unofficial() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "daily")
            asked = "This is your official attempt at today's daily: only its score counts. Start it now?"
            assert asked in " ".join(screen_text(app).replace("█", " ").split())
            await press(pilot, "escape")  # not now: back to the menu, nothing started
            assert isinstance(app.screen, MenuScreen) and recorded() == []
            await menu(pilot, "daily")
            await press(pilot, "enter")
            first = table(app)
            assert first.session.setup.day == NOON.date() and not first.session.unofficial
            assert "Daily game 2025-03-14 ·" in screen_text(app) and "unofficial" not in screen_text(app)
            await play_to_the_end(pilot, threshold=50)
            await press(pilot, "enter")  # play again: the same dice, already seen; not asked, it is unofficial
            second = table(app)
            assert second is not first and not second.session.game.history
            assert "Daily game 2025-03-14, unofficial ·" in screen_text(app), "said from its first screen"
            await play_to_the_end(pilot, threshold=50)
            assert second.session.game.history == first.session.game.history, "same dice, same play"
            assert "unofficial" in screen_text(app)
            assert [(mode, official) for mode, _, official, _ in recorded()] == [("daily", True), ("daily", False)]
            await press(pilot, "escape")
            await menu(pilot, "daily")  # from the menu too: straight to the table, unofficial
            assert table(app).session.unofficial and "Daily game 2025-03-14, unofficial" in screen_text(app)

    asyncio.run(run())


def test_score_pad_takes_typed_dice_and_refuses_bad_ones() -> None:
    async def run() -> None:
        app = make_app("farkle,target=1000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "pad")
            names = app.screen.query_one("#names")
            names.value = ""
            await press(pilot, *"Ann, Bob", "enter")
            screen = table(app)
            await press(pilot, "r")
            assert app.focused is screen.query_one("#pad-input")
            await press(pilot, *"1127", "enter")
            assert "'7' is not a die" in screen_text(app)
            screen.query_one("#pad-input").value = ""
            await press(pilot, *"111155", "enter")  # 1000 + 100 + 100: six dice score, hot dice
            assert screen.session.game.roll == (1, 1, 1, 1, 5, 5)
            await press(pilot, *"123456", "b")
            assert screen.session.game.scores == (1200, 0)
            assert screen.session.game.current == 1

    asyncio.run(run())


def test_a_three_farkle_penalty_cut_at_0_points_says_so_never_minus_0() -> None:
    """Bob's third farkle in a row at 0 costs nothing, Ann's at 150 costs 150 of the 500: the log says so."""
    async def run() -> None:
        app = make_app("farkle,three_farkles=500")
        async with app.run_test(size=(200, 60)) as pilot:
            await settle(pilot)
            await menu(pilot, "pad")
            app.screen.query_one("#names").value = ""
            await press(pilot, *"Ann, Bob", "enter")
            screen = table(app)
            await press(pilot, "r")  # the pad's input opens, then takes the typed dice
            await press(pilot, *"155234", "enter")
            await press(pilot, "1", "2", "b")  # Ann sets aside 1 and 5: 150
            for _ in range(6):  # Bob, Ann, Bob, Ann, Bob, Ann: each farkles
                await press(pilot, "r")
                await press(pilot, *"223466", "enter")
            assert screen.session.game.scores == (0, 0)
            log = [str(line.text) for line in screen.query_one("#log").lines]
            assert "Bob: three farkles in a row, no points to lose (the penalty of 500 stops at 0)" in log
            assert "Ann: three farkles in a row, −150, down to 0 (the penalty of 500 stops at 0)" in log
            assert not any("−0" in line for line in log)

    asyncio.run(run())


def test_score_pad_undoes_the_last_roll_then_the_last_choice() -> None:
    async def run() -> None:
        app = make_app("farkle,target=1000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "pad")
            app.screen.query_one("#names").value = ""
            await press(pilot, *"Ann, Bob", "enter")
            screen = table(app)
            assert "ctrl+z undo" in screen_text(app)
            await press(pilot, "r")
            await press(pilot, *"155234", "enter")
            await press(pilot, "1", "r")
            await press(pilot, *"23466", "enter")  # a farkle: Bob's turn
            assert screen.session.game.current == 1
            await press(pilot, "ctrl+z")  # the mistyped dice: Ann is asked for them again
            game = screen.session.game
            assert (game.current, game.phase, game.turn_total, game.dice_in_hand) == (0, Phase.CHANCE, 100, 5)
            assert app.focused is screen.query_one("#pad-input") and "taken back" in screen_text(app)
            await press(pilot, "ctrl+z")  # the set-aside and its roll: the first roll is on the table again
            game = screen.session.game
            assert (game.phase, game.roll, game.turn_total) == (Phase.SET_ASIDE, (1, 5, 5, 2, 3, 4), 0)
            assert [str(s) for s in game.history] == ["roll", "dice 155234"]
            await press(pilot, "1", "2", "3", "b")  # 1 5 5 banked
            assert screen.session.game.scores == (200, 0)

    asyncio.run(run())


def test_training_quiz_and_drill_never_recorded() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "training")
            screen = app.screen
            assert isinstance(screen, TrainingScreen)
            for _ in range(3):  # answer the quiz right: pick the best set-aside's dice
                q = screen.question
                assert q is not None
                best = q.best_set_aside
                left, keys = list(best or ()), []
                for i, face in enumerate(q.roll):
                    if face in left:
                        left.remove(face)
                        keys.append(str(i + 1))
                await press(pilot, *keys, "enter")
                assert "Right!" in screen_text(app)
                await press(pilot, "n")
            await press(pilot, "1", "enter") if screen.question and screen.question.best_set_aside else None
            await press(pilot, "t")
            for _ in range(3):  # the drills: answer what the exact values say
                d = screen.drill
                assert d is not None
                await press(pilot, "r" if d.roll_value > d.bank_value else "b")
                assert "Right!" in screen_text(app)
                await press(pilot, "n")
            assert screen.right >= 6
            await press(pilot, "escape")
            assert isinstance(app.screen, MenuScreen)
        assert recorded() == []

    asyncio.run(run())


def test_friend_challenge_create_then_join() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "challenge-new")
            code = str(app.screen.challenge.code)  # type: ignore[attr-defined]
            assert code in screen_text(app)
            await press(pilot, "enter")
            first = table(app)
            assert first.session.setup.challenge is not None and first.session.setup.challenge.code == code
            await press(pilot, "r")
            roll = first.session.game.roll
            await press(pilot, "q")  # saved, back to the menu
            await menu(pilot, "challenge-join")
            typo = code[:-1] + ("0" if code[-1] != "0" else "1")
            await press(pilot, *typo, "enter")
            assert "has a typo" in screen_text(app)
            app.screen.query_one("#code").value = ""
            await press(pilot, *code.lower(), "enter")
            assert "You have a saved game of this kind (Friend challenge" in " ".join(screen_text(app).split())
            await press(pilot, "enter")  # the first attempt was saved: asked, then a new one
            second = table(app)
            await press(pilot, "r")
            assert second.session.game.roll == roll, "the same code, the same dice"

    asyncio.run(run())


def dice_rows(text: str) -> list[str]:
    """The lines of the screen that show dice: drawn (│●│) or compact ([5])."""
    return [line for line in text.splitlines() if re.search(r"(\[[1-6?]\]){2}|│[● ?]{5}│", line)]


@pytest.mark.parametrize(("size", "form"), [((80, 24), "full"), ((100, 23), "compact"), ((60, 20), "compact"),
                                            ((40, 15), "compact"), ((39, 15), "small"), ((40, 14), "small"),
                                            ((20, 8), "small")])
def test_the_table_adapts_to_the_terminal_size(size: tuple[int, int], form: str) -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = table(app)
            await press(pilot, "r", "1")
            roll = screen.session.game.roll
            assert roll is not None
            text = screen_text(app)
            rows = dice_rows(text)
            if form == "full":
                assert len(rows) == 3 and "┌─────┐" in text and "›1‹✓" in text
            elif form == "compact":
                assert [re.findall(r"(?:\[[1-6]\])+", line)[-1] for line in rows] == [
                    "".join(f"[{face}]" for face in roll)
                ], text
                assert "┌─────┐" not in text and "›1‹ 2" in text and "too small" not in text
                line = next(line for line in text.splitlines() if "›1‹ 2" in line)
                ticks = text.splitlines()[text.splitlines().index(line) + 1]
                assert ticks[line.index("›1‹") :].startswith(" ✓"), "the tick under the picked die"
                assert "Set aside 1" in text and "Your turn" in text
                assert ("1-6 pick · r roll" if size[0] < 80 else "1-6 ←→ space pick") in text, "keys that fit"
                for line in text.splitlines():
                    assert len(line) <= size[0]
            else:
                assert rows == [] and "┌" not in text
                words = " ".join(text.split())
                assert f"it needs 40×15 and is {size[0]}×{size[1]}" in words or size[0] < 30, words
                assert screen.query_one("#too-small").display and not screen.query_one("#table-body").display
            await press(pilot, "q")
            assert isinstance(app.screen, MenuScreen) and save_path("solo").exists()

    asyncio.run(run())


def test_a_resized_terminal_switches_between_full_compact_and_too_small() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(30, 12)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            await press(pilot, "r")
            text = " ".join(screen_text(app).split())
            assert "The terminal is too small for the table: it needs 40×15 and is 30×12." in text
            assert "press q to leave (the game is saved)" in text
            assert not table(app).query_one("#table-body").display and not table(app).query_one("#log").display
            await pilot.resize_terminal(60, 20)
            await settle(pilot)
            assert "too small" not in screen_text(app) and len(dice_rows(screen_text(app))) == 1
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            text = screen_text(app)
            assert "too small" not in text and "Your turn" in text and len(dice_rows(text)) == 3
            assert table(app).query_one("#table-body").display and not table(app).query_one("#too-small").display

    asyncio.run(run())


def test_the_coach_list_scrolls_when_it_does_not_fit() -> None:
    async def run() -> None:
        for size in ((80, 24), (40, 15)):
            app = make_app()
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                await menu(pilot, "solo")
                screen = table(app)
                await press(pilot, "r", "h")
                advice = advise(screen.session.game)
                assert len(advice.choices) == 3  # title and three choices: more than the room at these sizes
                coach = screen.query_one("#advice")
                assert coach.max_scroll_y > 0, "more choices than room"
                assert "· PgDn ↓" in str(screen.query_one("#advice-text").content)
                assert size[0] < 80 or "· PgDn ↓" in screen_text(app)
                last = screen_text(app)
                for _ in range(coach.max_scroll_y):  # a page at least a line
                    await press(pilot, "pagedown")
                assert coach.scroll_y == coach.max_scroll_y and screen_text(app) != last
                lines = str(screen.query_one("#advice-text").content).splitlines()
                assert len(lines) == 1 + len(advice.choices)  # the title, then every choice
                assert lines[-1].split()[-1] in screen_text(app), "the last choice can be read"
                for _ in range(coach.max_scroll_y):
                    await press(pilot, "pageup")
                assert coach.scroll_y == 0

    asyncio.run(run())


def test_quitting_saves_and_resume_continues() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = table(app)
            for _ in range(7):
                await press(pilot, *keys_for(screen, 400))
            history = list(screen.session.game.history)
            await press(pilot, "q")
            assert save_path("solo").exists()
            assert "Resume the saved game (Solo, ten turns" in screen_text(app)
        resumed = Session.load()
        assert list(resumed.game.history) == history and resumed.resumed
        app = make_app(resume=resumed)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = table(app)
            assert list(screen.session.game.history) == history
            assert screen.moment == ("", ""), "the saved game's last moment is not shown as news"
            assert str(screen.query_one("#moment").render()) == screen._whose_turn()[0]
            await play_to_the_end(pilot)
        assert not save_path("solo").exists(), "a resumed game that ends clears the save"
        assert [mode for mode, *_ in recorded()] == ["solo"]
        with pytest.raises(SaveError, match="no saved game"):
            Session.load()

    asyncio.run(run())


def test_saved_games_one_per_kind_and_a_new_game_asks_before_replacing_one() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            await press(pilot, "r")
            versus = list(table(app).session.game.history)
            await press(pilot, "q")
            await menu(pilot, "solo")  # no solo game is saved: it starts at once, the versus game stays
            solo = table(app)
            await press(pilot, *keys_for(solo, 10_000))
            await press(pilot, "q")
            options = app.screen.query_one("#menu-options")
            resumes = [str(o.prompt) for o in options.options if str(o.id).startswith("resume:")]
            assert len(resumes) == 2 and "Solo, ten turns" in resumes[0], "the latest first"
            assert "Against the computer (Easy)" in resumes[1]
            assert sorted(p.name for p in saved_games()) == ["saved-solo.json", "saved-versus-easy.json"]
            await menu(pilot, "solo")  # a solo game is saved: asked first
            ask = " ".join(screen_text(app).replace("█", " ").split())
            assert "You have a saved game of this kind (Solo, ten turns: " in ask and "Start a new one?" in ask
            await press(pilot, "escape")
            assert isinstance(app.screen, MenuScreen) and save_path("solo").exists()
            ids = [o.id for o in app.screen.query_one("#menu-options").options]
            await press(pilot, "home", *["down"] * ids.index("resume:saved-versus-easy.json"), "enter")
            assert list(table(app).session.game.history) == versus
            await press(pilot, "q")
            await menu(pilot, "solo")
            await press(pilot, "enter")  # yes: a new solo game, the old one is gone
            assert table(app).session.game.history == [] and not save_path("solo").exists()
            await press(pilot, "q")  # nothing played: saved all the same, as quitting always does
            assert save_path("solo").exists() and save_path("versus-easy").exists()
        assert Session.load().mode is Mode.SOLO, "--resume continues the latest saved game"

    asyncio.run(run())


def test_a_save_of_the_earlier_single_file_is_listed_and_moves_to_its_kind() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "race")
            await press(pilot, "r")
            await press(pilot, "q")
        save_path("race").rename(save_path("game"))  # what earlier versions wrote: saved-game.json
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "resume:saved-game.json")
            assert table(app).session.mode is Mode.RACE
            await press(pilot, "q")
            assert [p.name for p in saved_games()] == ["saved-race.json"]

    asyncio.run(run())


def test_ctrl_q_in_a_game_saves_it() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            await press(pilot, "r")
            await pilot.press("ctrl+q")
        assert Session.load().mode is Mode.VERSUS

    asyncio.run(run())


def test_table_shows_legality_risk_and_refusals_from_the_engine() -> None:
    async def run() -> None:
        app = make_app("farkle,entry=500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = table(app)
            await press(pilot, "b")
            assert "nothing to bank yet: roll first" in screen_text(app)
            await press(pilot, "r")
            game = screen.session.game
            assert game.roll is not None
            # Pick a die that does not score alone (if any), then look at what the table says.
            lonely = next((i for i, f in enumerate(game.roll) if f not in (1, 5) and game.roll.count(f) < 3), None)
            if lonely is not None:
                await press(pilot, str(lonely + 1))
                assert "do not all score" in screen_text(app)
                await press(pilot, "r")
                assert "do not all score" in screen_text(app)
                assert game.phase is Phase.SET_ASIDE, "an illegal selection changes nothing"
                await press(pilot, str(lonely + 1))
            one = game.roll.index(1) if 1 in game.roll else game.roll.index(5)
            await press(pilot, str(one + 1))
            text = screen_text(app)
            assert "✓" in text
            assert "farkle risk 7.7%" in text  # five dice left: 600/7776 (seed 003's table)
            reason = bank_refusal(game.rules, score=0, turn_total=100 if game.roll[one] == 1 else 50, entered=False,
                                  hot_dice=False, must_validate=False)
            assert reason is not None and "needs 500" in str(reason)
            await press(pilot, "b")
            assert game.phase is Phase.SET_ASIDE, "the refused bank set nothing aside"
            assert "the first bank needs 500 in one turn" in screen_text(app)

    asyncio.run(run())


def test_hint_gives_the_coach_choices_best_first() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            screen = table(app)
            await press(pilot, "r", "h")
            text = screen_text(app)
            assert "Coach (expected points of the turn)" in text and "▸" in text and "best" in text
            advice = advise(screen.session.game)
            shown = next(line for line in text.splitlines() if "▸" in line)
            assert str(advice.best.set_aside).replace("", " ").strip() in shown
            # Banking right after the first set-aside of a turn is worth exactly its points (hand-worked).
            for choice in advice.choices:
                if choice.then == "bank":
                    option = next(o for o in screen.session.game.options() if o.set_aside == choice.set_aside)
                    assert choice.value == option.points
            await press(pilot, "h", *keys_for(screen, 10_000))
            assert "Coach (" not in screen_text(app), "the advice goes once the game moves on"

    asyncio.run(run())


# -- snapshots -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "key", "lines"), [
    ("en", "?", ["1. Roll: r rolls the 5 dice.", "each 1 or 5 alone", "Entry: 500 in one turn",
                 "Three farkles in a row: −1,000", "Hot dice: all the dice must be rolled again"]),
    ("fr", "f1", ["1. Lancer : r lance les 5 dés.", "chaque 1 ou 5 seul", "Seuil d'entrée : 500",
                  "Trois Farkles d'affilée : −1 000", "Hot Dice : il faut relancer tous les dés"]),
])
def test_how_to_play_from_the_menu_tells_the_rules_in_force(lang: str, key: str, lines: list[str]) -> None:
    from hotdice.tui.screens.dialogs import HowToPlayScreen

    async def run() -> None:
        app = make_app("5000,entry=500,three_farkles=1000,hot_dice=must", lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert ("? how to play" if lang == "en" else "? comment jouer") in screen_text(app)
            await press(pilot, key)
            assert isinstance(app.screen, HowToPlayScreen)
            assert lines[0] in re.sub("[\u00a0\u202f]", " ", screen_text(app))
            told = re.sub("[\u00a0\u202f]", " ", str(app.screen.query_one("#howto-text").content))
            assert all(line in told for line in lines), told  # spaces inside numbers as plain ones
            await press(pilot, "escape")
            assert isinstance(app.screen, MenuScreen)
        async with make_app(lang=lang).run_test(size=(40, 15)) as pilot:  # too small for it: it scrolls
            await settle(pilot)
            await press(pilot, key)
            box = pilot.app.screen.query_one("#howto-box")
            assert box.max_scroll_y > 0 and pilot.app.focused is box
            await press(pilot, "down", "down")
            assert box.scroll_y > 0

    asyncio.run(run())


def test_snapshot_menu() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            check_snapshot("menu", screen_text(app))

    asyncio.run(run())


def test_snapshot_table() -> None:
    async def run() -> None:
        app = make_app("farkle,entry=500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-hard")
            await press(pilot, "r", "1", "right", "right")
            check_snapshot("table", screen_text(app))

    asyncio.run(run())


def test_a_race_ends_on_its_turns_without_a_last_round() -> None:
    """Alone, reaching the target ends the race at once: the headline leads with the turns it took, and
    neither the log nor the screen speaks of a last round."""
    async def run() -> None:
        app = make_app("farkle,target=1000")
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            await menu(pilot, "race")
            screen = await play_to_the_end(pilot)
            game = screen.session.game
            turns = game.turns_played[0]
            headline = str(app.screen.query_one("#over-headline").render())
            plural = "1 turn" if turns == 1 else f"{turns} turns"
            assert headline == f"{plural} to reach 1,000: {game.scores[0]:,}", headline
            log = [str(line.text) for line in screen.query_one("#log").lines]
            assert not any("LAST ROUND" in line for line in log) and "LAST ROUND" not in screen_text(app)

    asyncio.run(run())


def test_snapshot_statistics() -> None:
    async def run() -> None:
        app = make_app("farkle,target=1000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            await play_to_the_end(pilot)
            await press(pilot, "escape")
            await menu(pilot, "race")
            await play_to_the_end(pilot)
            await press(pilot, "escape")
            await menu(pilot, "stats")
            check_snapshot("statistics", screen_text(app))

    asyncio.run(run())


@pytest.mark.parametrize(("lang", "shown"), [("en", "Hard"), ("fr", "Difficile")])
def test_opponents_show_as_their_level_name(lang: str, shown: str) -> None:
    from hotdice.store.stats import Tally, statistics
    from hotdice.tui.screens.stats import stats_view

    with Store() as store:
        stats = dataclasses.replace(statistics(store, owner=""), games=1, by_opponent={"hard": Tally(1, 0)})
    console = Console(width=80, file=io.StringIO(), record=True)
    console.print(stats_view(Translator(lang), stats))
    rows = [line.split() for line in console.export_text().splitlines()]
    assert [shown, "1", "0"] in rows and not any("hard" in row for row in rows)


# -- settings, languages, colour -------------------------------------------------------------------


def test_settings_house_rules_and_rules_string() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "settings")
            assert isinstance(app.screen, SettingsScreen)
            options = app.screen.query_one("#settings-list")
            ids = [o.id for o in options.options]
            await press(pilot, *["down"] * ids.index("entry"), "enter", "enter")  # none -> 350 -> 500
            assert str(app.rules) == "farkle,entry=500"
            await press(pilot, "up")  # the end of the game, just above the entry
            assert options.highlighted_option.id == "end"
            await press(pilot, *["down"] * (ids.index("rule_4900") - ids.index("end")), "enter")
            assert "Not allowed" in screen_text(app) and str(app.rules) == "farkle,entry=500"
            rules_input = app.screen.query_one("#settings-rules")
            rules_input.focus()
            rules_input.value = "5000-fr,entry=1000"
            await press(pilot, "enter")
            assert str(app.rules) == "5000-fr,entry=1000"
            rules_input.value = "farkle,entry=20000"
            await press(pilot, "enter")
            assert "entry=20000 is not allowed" in screen_text(app) and str(app.rules) == "5000-fr,entry=1000"
            options.focus()
            await press(pilot, "home", "enter")  # language: en -> fr
            assert app.t.lang == "fr" and "Réglages" in screen_text(app)
            await press(pilot, "escape")
            assert "Solo\u00a0: dix tours" in screen_text(app)
        again = make_app(lang=None)  # the settings are kept for next time
        again.rules = again.rules  # built from the saved settings
        assert again.t.lang == "fr" and str(Rules.parse(again.prefs.rules)) == "5000-fr,entry=1000"

    asyncio.run(run())


def test_french_table_and_engine_messages() -> None:
    async def run() -> None:
        app = make_app("farkle,entry=500", lang="fr")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            await press(pilot, "b")
            text = screen_text(app)
            assert "rien à encaisser\u00a0: lancez d'abord" in text
            assert "risque de Farkle 2,3\u00a0%" in text
            await press(pilot, "r", "question_mark")
            assert "Barème" in screen_text(app) and "Trois 1" in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize(("lang", "turns"), [("en", "10 turns each: the highest score wins"),
                                              ("fr", "10 tours chacun\u00a0: le plus haut score gagne")])
def test_the_scoring_window_of_a_ten_turn_game_shows_the_rules_chosen(lang: str, turns: str) -> None:
    """Solo plays farkle,entry=500 with its target lifted to 1,000,000 (only the turns end it): never shown."""
    async def run() -> None:
        app = make_app("farkle,entry=500", lang=lang)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            await press(pilot, "question_mark")
            text = screen_text(app)
            assert "farkle,entry=500" in text and turns in text
            assert not re.search(r"1[ ,.\u202f\u00a0]?000[ ,.\u202f\u00a0]?000", text), text

    asyncio.run(run())


def test_catalogs_match() -> None:
    en, fr = catalog("en"), catalog("fr")
    assert set(en) == set(fr)
    fields = re.compile(r"\{(\w*)")
    for key in en:
        assert set(fields.findall(en[key])) == set(fields.findall(fr[key])), key


def test_key_lines_and_legends_fit_80_columns() -> None:
    for lang in LANGUAGES:
        t = Translator(lang)
        for key, text in catalog(lang).items():
            if key.endswith(("keys", "keys_quiz", "keys_drill", "keys_computer", "keys_over")):
                assert len(text.format(n=6)) <= 78, (lang, key)
        for legend in (t("table.on_board"), t("table.not_on_board", entry=t.number(1000)), t("table.farkles_row")):
            assert len(legend) <= 24, (lang, legend)  # the scoreboard's width inside its border


def test_every_bank_refusal_is_translated() -> None:
    t = Translator("fr")
    seen = set()
    for variant in VARIANTS:
        rules = variant.rules
        exact = rules.replace(end=rules.end) if not rules.five_1s_win else rules.replace(rule_4900=True)
        for r in (rules, exact, rules.replace(min_bank=300)):
            for total in (0, 50, 250, 700, 4900):
                for entered in (False, True):
                    for hot in (False, True):
                        for validate in (False, True):
                            reason = bank_refusal(r, score=0 if total < 4900 else 50, turn_total=total,
                                                  entered=entered, hot_dice=hot, must_validate=validate)
                            if reason is not None:
                                seen.add(reason)
    assert len(seen) >= 5
    for reason in seen:
        assert t.refusal(reason) != str(reason), f"no French for: {reason}"


def test_scoring_table_names_are_translated() -> None:
    from hotdice.game.rules import Kinds
    from hotdice.game.scoring import scoring_table

    t = Translator("fr")
    for variant in VARIANTS:
        for kinds in Kinds:
            six = {"four_kind_pair": 1500} if variant.rules.dice == 6 else {}  # refused with five dice
            rules = variant.rules.replace(kinds=kinds, low_straight=500, high_straight=750, **six)
            for line in scoring_table(rules):
                assert combination_name(t, line) != line.name, line


def test_language_from_the_locale() -> None:
    assert detect_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert detect_language({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_language({}) == "en"
    assert Translator("fr").number(10_000) == "10\u202f000" and Translator("en").number(10_000) == "10,000"


def test_no_color_roll_off_box_reads_off_and_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def run() -> None:
        app = make_app()
        assert app.no_color
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "together")
            box = "Roll a die for who starts"
            assert f"[ ] {box}" in screen_text(app) and f"[x] {box}" not in screen_text(app)
            await pilot.press("tab", "space")
            await settle(pilot)
            assert f"[x] {box}" in screen_text(app) and f"[ ] {box}" not in screen_text(app)
            await pilot.press("space")
            await settle(pilot)
            assert f"[ ] {box}" in screen_text(app)
            await pilot.press("shift+tab")  # back to the names: the key line's F2 ticks the box from there
            assert "F2 roll for who starts on/off" in screen_text(app)
            await pilot.press("f2")
            await settle(pilot)
            assert f"[x] {box}" in screen_text(app) and app.focused is app.screen.query_one("#names")
            await pilot.press("enter")
            await settle(pilot)
            assert table(app).session.setup.roll_off is not None

    asyncio.run(run())


def test_no_color_keeps_the_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def run() -> None:
        app = make_app()
        assert app.no_color
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            await press(pilot, "r", "1")
            text = screen_text(app)
            assert "›1‹✓" in text, "the picked die is marked without colour"

    asyncio.run(run())


def test_levels_are_the_registered_players() -> None:
    from hotdice.play.modes import versus

    for level in ("easy", "medium", "hard"):
        assert computer_spec(level) == level and level in PLAYERS
        session = Session(versus(Rules()), level=level)
        assert session.computer is not None and session.computer.name == level
    with pytest.raises(ValueError, match="unknown level"):
        computer_spec("greedy")


def test_cli_play_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from hotdice.cli import main

    for argv, message in (
        (["play", "--lang", "de"], "--lang de: the languages are fr and en"),
        (["play", "--resume"], "no saved game to resume"),
        (["play", "--rules", "farkle,entry=7"], "bad rules"),
        (["play"], "needs a terminal"),
    ):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("hotdice: error: ") and message in err and err.count("\n") == 1


def test_hard_is_refused_with_the_reason_for_rules_it_cannot_solve() -> None:
    async def run() -> None:
        app = make_app("farkle,target=20000")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-hard")
            assert isinstance(app.screen, MenuScreen)  # no game started
            said = [n.message for n in app._notifications]
            assert said == ["Hard cannot play these rules exactly: Hard solves games up to a target of 10000; "
                            "target=20000 would take too long to solve. Choose Medium."]

    asyncio.run(run())


@pytest.fixture
def hold(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Two-player solves wait for the event (for a first look: a quiet machine solves 1500 in a second)."""
    from hotdice.analysis.solver import background

    event = threading.Event()
    real = background.two_player_solution

    def held(rules: Rules) -> object:
        event.wait(60)
        return real(rules)

    monkeypatch.setattr(background, "two_player_solution", held)
    return event


def test_the_table_shows_how_far_hard_has_worked_out_the_rules(hold: threading.Event) -> None:
    from tests.analysis.test_background import fresh_rules


    async def run() -> None:
        app = make_app(str(fresh_rules("farkle,target=1500")), warm=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-hard")
            shown = screen_text(app)  # as the game opens: the solve was asked for, not waited for
            assert "Hard is working out these rules:" in shown and "expected points" in shown, shown
            hold.set()
            screen = table(app)
            deadline = time.monotonic() + 120
            while screen.solver.status is None or not screen.solver.status.ready:
                assert time.monotonic() < deadline, "the background solve never finished"
                await pilot.pause(0.1)
            await pilot.pause(0.1)
            assert "Hard is working out" not in screen_text(app)

    asyncio.run(run())


def test_hard_waits_for_its_exact_play_when_the_settings_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from hotdice.analysis.solver import background
    from hotdice.game.engine import Game
    from hotdice.game.scoring import parse_dice
    from hotdice.tui.prefs import Prefs
    from tests.analysis.test_background import fresh_rules

    hold = threading.Event()
    real = background.two_player_solution

    def held(rules: Rules) -> object:
        hold.wait(60)
        return real(rules)

    monkeypatch.setattr(background, "two_player_solution", held)
    rules = fresh_rules("farkle,target=1500")

    async def keys(pilot: object, *names: str) -> None:
        """Keys pressed without waiting for the workers: the computer's waits for the held solve."""
        app = pilot.app  # type: ignore[attr-defined]
        for name in names:
            app.post_message(events.Key(name, _CHARS.get(name, name if len(name) == 1 else None)))
        await pilot.pause(0.05)  # type: ignore[attr-defined]

    async def run() -> None:
        app = make_app(str(rules), warm=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await menu(pilot, "settings")
            ids = [o.id for o in app.screen.query_one("#settings-list").options]
            await press(pilot, *["down"] * ids.index("hard_waits"), "enter", "escape")
            assert app.prefs.hard_waits and Prefs.load().hard_waits  # kept for next time
            await menu(pilot, "versus-hard")
            screen = table(app)
            assert screen.session.waits
            shown = screen_text(app)
            assert "Hard is working out these rules:" in shown and "it waits for its exact play" in shown, shown
            deadline = time.monotonic() + 60
            while not screen.session.computer_to_act():  # the player's own turn is not held
                assert time.monotonic() < deadline
                await keys(pilot, *keys_for(screen, 300))
            start = len(screen.session.game.history)
            for _ in range(5):  # the computer holds its move, thinking, while the UI goes on
                await pilot.pause(0.1)
                assert len(screen.session.game.history) == start and screen.driver.thinking
            shown = screen_text(app)
            assert "is thinking" in shown and "it waits for its exact play" in shown, shown
            hold.set()
            deadline = time.monotonic() + 120
            while len(screen.session.game.history) == start:
                assert time.monotonic() < deadline, "Hard never played"
                await pilot.pause(0.1)
            await settle(pilot)
            record = screen.session.record()
        # Every move of the computer's turn that waited is the exact one (the chance to win).
        game = Game(Rules.parse(record.rules), players=record.players, first=record.first)
        checked = 0
        for k, line in enumerate(record.history):
            if k >= start and game.to_act == 1:
                advice = advise(game)
                probe = Game(game.rules, players=record.players, first=record.first)
                for earlier in record.history[:k]:
                    apply_line(probe, earlier)
                probe.apply(advice.best.action)
                assert advice.measure == "win" and str(probe.history[-1]) == line, (k, line, advice)
                checked += 1
            elif k > start and game.to_act == 0:
                break
            apply_line(game, line)
        assert checked >= 1

    def apply_line(game: Game, line: str) -> None:
        if line.startswith("dice "):
            game.apply_roll(parse_dice(line[len("dice "):], game.rules.dice))
        else:
            game.apply(line)

    asyncio.run(run())


def test_a_game_saved_in_english_resumes_all_in_french() -> None:
    """The saved game holds the default names as codes: resumed in French, they are French."""

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            screen = table(app)
            while screen.session.game.turns_played[1] < 1 or not screen.human_to_act():  # the computer played
                await press(pilot, *keys_for(screen, 300))
            assert "You" in screen_text(app) and "Computer" in screen_text(app)
            await press(pilot, "q")
        resumed = Session.load()
        assert resumed.game.players == ("You", "Computer"), "the record keeps the English words"
        app = make_app(lang="fr", resume=resumed)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            log = "\n".join(str(line.text) for line in table(app).query_one("#log").lines)
            assert "Vous" in text and "Ordinateur" in text and "Ordinateur\u00a0: lance" in log
            for english in ("You", "Computer", "rolls", "banks"):
                assert english not in text and english not in log, english

    asyncio.run(run())


def test_a_saved_challenge_is_labelled_with_french_spacing() -> None:
    async def run() -> None:
        code = Challenge.new("farkle", rng=random.Random(3)).code
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.start(GameKind(Mode.CHALLENGE, code=code)) is None
            await settle(pilot)
            await press(pilot, "q")
        app = make_app(lang="fr")
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            assert f"(Défi entre amis {code}\u00a0: 0)" in screen_text(app)

    asyncio.run(run())


def test_names_left_as_offered_are_defaults_and_typed_ones_are_kept() -> None:
    app = make_app(lang="fr")
    names, defaults = app.typed_names(("Vous", "Joueur 2", "Léa"))
    assert names == ("You", "Player 2", "Léa")
    assert defaults == (DefaultName("you"), DefaultName("player", 2), None)
    app.prefs.name = "Ann"
    assert app.typed_names(("Ann", "Vous")) == (("Ann", "Vous"), (None, None))


def test_every_terminal_screen_in_french_shows_no_english_message() -> None:
    """Each screen of the terminal, in French, holds no piece of an English catalogue message that French words
    otherwise (tests/french_support.py): menu, settings, statistics, training, forms, the table in its states,
    the scoring table, the end of a game, the small-terminal notice, the quit hint."""

    async def run() -> None:
        english: dict[str, list[str]] = {}

        def seen(state: str) -> None:
            found = english_left(" ".join(screen_text(app).split()), "tui")
            if found:
                english[state] = found

        app = make_app("farkle,target=1500", lang="fr")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            seen("menu")
            await pilot.press("ctrl+c")
            await settle(pilot)
            seen("quit hint")
            await menu(pilot, "settings")
            seen("settings")
            rules_input = app.screen.query_one("#settings-rules")
            rules_input.focus()
            rules_input.value = "farkle,entry=123"
            await press(pilot, "enter")
            seen("settings: a refused rules string")
            await press(pilot, "escape")
            await menu(pilot, "training")
            seen("training: quiz")
            await press(pilot, "t")
            seen("training: drill")
            await press(pilot, "escape")
            await menu(pilot, "together")
            seen("names")
            await press(pilot, "escape")
            await menu(pilot, "challenge-new")
            seen("challenge created")
            await press(pilot, "escape")
            await menu(pilot, "challenge-join")
            await press(pilot, *"00000-00001", "enter")
            seen("challenge join: a typo")
            await press(pilot, "escape")
            await menu(pilot, "versus-easy")
            screen = table(app)
            states: set[str] = set()
            for _ in range(3000):
                game = screen.session.game
                if game.outcome is not None:
                    break
                state = "farkle" if screen.view().dead_roll is not None else "rolling"
                seen(state)
                states.add(state)
                if game.roll is not None and "refusal shown" not in states:
                    dead = next((i for i, f in enumerate(game.roll) if f in (2, 3, 4, 6) and game.roll.count(f) < 3),
                                None)
                    if dead is not None:
                        await press(pilot, str(dead + 1))
                        seen("refusal shown")
                        states.add("refusal shown")
                        await press(pilot, str(dead + 1))
                        await press(pilot, "question_mark")
                        seen("scoring table")
                        await press(pilot, "escape")
                await press(pilot, *keys_for(screen, 350))
            seen("game over")
            assert {"rolling", "refusal shown", "farkle"} <= states, states
            await press(pilot, "escape")
            await menu(pilot, "stats")
            seen("statistics")
            await press(pilot, "escape")
            await menu(pilot, "solo")
            await pilot.resize_terminal(60, 20)
            await settle(pilot)
            seen("too small")
        assert english == {}

    asyncio.run(run())


async def _reviewed(pilot: object, measure_words: str) -> None:
    """On the result screen: R opens the review, which (its table shipped) shows the chart in the mode's measure;
    Esc goes back to the result."""
    from hotdice.tui.screens.review import ReviewScreen

    app = pilot.app  # type: ignore[attr-defined]
    assert isinstance(app.screen, GameOverScreen) and "R review" in screen_text(app)
    await press(pilot, "r")
    review = app.screen
    assert isinstance(review, ReviewScreen) and review.ready
    assert measure_words in screen_text(app) and "│" in screen_text(app)
    await press(pilot, "escape")
    assert isinstance(app.screen, GameOverScreen)


@pytest.mark.slow
@pytest.mark.parametrize(("item", "keys", "measure_words"), [
    ("race", [], "expected turns to the target"),
    ("versus-easy", [], "You's chance to win"),
    ("together", ["Ann, Bob", "enter"], "Ann's chance to win"),
    ("daily", ["enter"], "expected final points"),  # the attempt started once asked
    ("challenge-new", ["enter"], "expected final points"),
])
def test_every_modes_result_offers_its_review(item: str, keys: list[str], measure_words: str) -> None:
    async def run() -> None:
        app = make_app("5000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, item)
            if item == "together":
                app.screen.query_one("#names").value = ""
                keys[0:1] = list(keys[0])
            await press(pilot, *keys)
            await play_to_the_end(pilot)
            await _reviewed(pilot, measure_words)

    asyncio.run(run())


@pytest.mark.slow
def test_the_score_pads_result_offers_its_review() -> None:
    """The table's dice typed in: Ann's hot dice of 1s and a 5 again and again past 5,000 (then a 1 to bank),
    then Bob farkles in the last round."""
    async def run() -> None:
        app = make_app("5000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "pad")
            app.screen.query_one("#names").value = ""
            await press(pilot, *"Ann, Bob", "enter")
            game = table(app).session.game
            n = game.rules.dice
            hot, every = "1" * (n - 1) + "5", [str(i + 1) for i in range(n)]
            await press(pilot, "r")
            await press(pilot, *hot, "enter")
            while game.turn_total + game.options()[0].points < 5000:
                await press(pilot, *every, "r")
                await press(pilot, *hot, "enter")
            await press(pilot, *every, "r")
            await press(pilot, *"12266"[:n], "enter")
            await press(pilot, "1", "b")
            assert game.scores[0] >= 5000
            await press(pilot, "r")
            await press(pilot, *"22346"[:n], "enter")
            assert game.outcome is not None
            await _reviewed(pilot, "Ann's chance to win")

    asyncio.run(run())


def test_the_review_is_being_prepared_while_its_table_is_solved_then_fills_in(hold: threading.Event) -> None:
    """Rules without a shipped table (a small custom string): R says the review is being prepared, with the
    background solve's progress, and fills in once the table is ready. The solve is held until the screen has
    been seen: were it solved inside the screen, the screen would wait for it."""
    from hotdice.tui.screens.review import ReviewScreen
    from tests.analysis.test_background import fresh_rules

    async def run() -> None:
        app = make_app(str(fresh_rules("farkle,target=1500")))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            await play_to_the_end(pilot)
            await press(pilot, "r")
            review = app.screen
            assert isinstance(review, ReviewScreen) and not review.ready
            shown = " ".join(screen_text(app).split())
            assert re.search(r"The review is being prepared: .* \(\d+\.\d% done\)", shown), shown
            assert "chance to win" not in shown
            hold.set()
            deadline = time.monotonic() + 120
            while not review.ready:
                assert time.monotonic() < deadline, "the review never filled in"
                await pilot.pause(0.1)
            await pilot.pause(0.1)
            shown = screen_text(app)
            assert "You's chance to win" in shown and "being prepared" not in shown

    asyncio.run(run())


def test_the_review_screens_words_in_french() -> None:
    t = Translator("fr")
    assert t("review.preparing", percent=t.percent(0.25)).startswith("L’analyse se prépare\u00a0:")


def test_the_statistics_list_the_last_games_and_a_number_opens_its_review() -> None:
    from hotdice.tui.screens.review import ReviewScreen
    from hotdice.tui.screens.stats import StatsScreen

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "solo")
            game = (await play_to_the_end(pilot)).session.game
            await press(pilot, "escape")
            await menu(pilot, "stats")
            await press(pilot, "end")
            await pilot.pause(0.5)  # the scroll's animation
            text = screen_text(app)
            assert "Your last games" in text and "1-9 review a game" in text
            assert re.search(rf"1 +\d{{4}}-\d\d-\d\d +Solo, ten turns +{game.scores[0]:,}", text), text
            await press(pilot, "2")  # no second game: nothing happens
            assert isinstance(app.screen, StatsScreen)
            await press(pilot, "1")
            review = app.screen
            assert isinstance(review, ReviewScreen) and review.ready
            assert list(review.game.history) == list(game.history)
            assert "expected final points" in screen_text(app)
            await press(pilot, "escape")
            assert isinstance(app.screen, StatsScreen)

    asyncio.run(run())
