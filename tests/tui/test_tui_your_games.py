"""The terminal's Your games and rematch (issue 25): the lists as the store gathers them (today's daily waiting,
the saved games in progress, the latest finished), each list left out when empty, a letter resuming a game and a
digit opening a review, inside 80×24 in English and French; Enter on the result as the rematch of every mode that
has one (the same players and rules string, the next seat first), a friend challenge's "challenge back"."""

from __future__ import annotations

import asyncio
import json
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hotdice.game.engine import EventKind
from hotdice.game.record import record_of
from hotdice.game.rules import Rules
from hotdice.play.modes import Challenge, Mode, challenge, pad, race, solo, together, versus
from hotdice.play.players import make_player, play_game
from hotdice.store import Store
from hotdice.store.saves import read_save, resumable, save_path, write_save
from hotdice.store.stats import record_game
from hotdice.store.your_games import HISTORY, your_games
from hotdice.tui.screens.forms import ChallengeCreatedScreen
from hotdice.tui.screens.review import ReviewScreen
from hotdice.tui.screens.yours import YourGamesScreen
from hotdice.tui.session import Session
from tests.tui.test_tui import (
    NOON,
    data_dir,
    keys_for,
    make_app,
    menu,
    play_to_the_end,
    press,
    screen_text,
    settle,
    table,
)

__all__ = ["data_dir"]

TODAY = NOON.date()


def fits(text: str) -> None:
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), text


def test_your_games_lists_what_waits_what_is_in_progress_and_what_is_finished() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "your-games")
            text = screen_text(app)
            assert "Waiting for you" in text and "a  Today’s daily game: not played yet" in text
            assert "In progress" not in text and "Finished" not in text, "an empty list says nothing"
            await press(pilot, "escape")
            await menu(pilot, "solo")
            finished = (await play_to_the_end(pilot)).session.game
            await press(pilot, "escape")
            await menu(pilot, "race")
            await press(pilot, *keys_for(table(app), 300))
            race = list(table(app).session.game.history)
            await press(pilot, "q")
            await menu(pilot, "your-games")
            text = screen_text(app)
            fits(text)
            assert text.index("Waiting for you") < text.index("In progress") < text.index("Finished")
            assert re.search(r"b  Solo race: [\d,]+\n", text), text
            assert re.search(rf"1  \d{{4}}-\d\d-\d\d  Solo, ten turns  {finished.scores[0]:,}\n", text), text
            await press(pilot, "2")  # no second finished game: nothing happens
            assert isinstance(app.screen, YourGamesScreen)
            await press(pilot, "1")
            assert isinstance(app.screen, ReviewScreen) and list(app.screen.game.history) == list(finished.history)
            await press(pilot, "escape")
            assert isinstance(app.screen, YourGamesScreen)
            await press(pilot, "b")  # one key resumes the race
            assert table(app).session.mode is Mode.RACE and list(table(app).session.game.history) == race

    asyncio.run(run())


def test_enter_on_a_row_does_what_its_key_does_and_the_official_daily_leaves_the_waiting_list() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "your-games")
            await press(pilot, "enter")  # the highlighted row: today's daily, asked first as from the menu
            assert "official attempt" in screen_text(app)
            await press(pilot, "enter")
            assert table(app).session.setup.day == TODAY
            await press(pilot, *keys_for(table(app), 300))
            await press(pilot, "q")
            await menu(pilot, "your-games")
            text = screen_text(app)
            assert "Waiting for you" not in text, "today's attempt is in progress, not waiting"
            assert "a  Daily game 2025-03-14: 0" in text
            await press(pilot, "enter")
            await play_to_the_end(pilot, threshold=50)
            await press(pilot, "escape")
            await menu(pilot, "your-games")
            text = screen_text(app)
            assert "Waiting for you" not in text and "In progress" not in text
            assert re.search(r"1  \d{4}-\d\d-\d\d  Daily game", text), text

    asyncio.run(run())


def test_your_games_in_french() -> None:
    async def run() -> None:
        app = make_app("farkle,target=2000", lang="fr")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            await play_to_the_end(pilot)
            await press(pilot, "escape")
            await menu(pilot, "solo")
            await press(pilot, "q")
            await menu(pilot, "your-games")
            text = screen_text(app)
            fits(text)
            assert "Vos parties" in text and "À vous de jouer" in text and "La partie du jour\u00a0: pas encore" in text
            assert "En cours" in text and "b  Solo, dix tours\u00a0: 0" in text and "Terminées" in text
            day = app.t.date(datetime.now(UTC).date())  # when it was recorded, in French words
            assert re.search(rf"1  {day}  Contre l.ordinateur \(Facile\)  [\d\u202f]+  (gagnée|perdue)\n", text), text
            assert "a-i jouer ou reprendre · 1-9 analyser" in text

    asyncio.run(run())


def finished_versus() -> Session:
    """A finished game against the computer, played by two computers, for the store's lists."""
    setup = versus(Rules.parse("farkle,target=1000"), "You", "Computer")
    assert setup.dice is not None
    rng = random.Random(1)
    play_game(setup.game, [make_player("greedy:300", rng), make_player("greedy:500", rng)], setup.dice)
    return Session(setup, level="easy")


def test_the_store_gathers_the_lists_typed_and_leaves_out_what_cannot_be_resumed(data_dir: Path) -> None:
    with Store() as store:
        assert your_games(store, TODAY).daily == TODAY
        for _ in range(HISTORY):
            done = finished_versus()
            record_game(store, done.game, player=0, mode="versus", opponent="easy",
                        record_json=json.dumps(done.record().to_json()))
        alone = solo(Rules.parse("farkle"), "You")
        assert alone.dice is not None
        play_game(alone.game, [make_player("greedy:300", random.Random(2))], alone.dice)
        record_game(store, alone.game, player=0, mode="solo", opponent=None,
                    record_json=json.dumps(record_of(alone.game, mode="solo").to_json()))
        record_game(store, finished_versus().game, player=0, mode="versus", opponent="easy")  # no record: no review
        (data_dir / "saved-broken.json").write_text("{", encoding="utf-8")
        started = versus(Rules.parse("farkle"), "You", "Computer")
        write_save(save_path("versus-hard"), started, "hard", ())
        games = your_games(store, TODAY)
        assert [s.path.name for s in games.in_progress] == ["saved-versus-hard.json"]
        assert games.in_progress[0].level == "hard" and games.in_progress[0].setup.mode is Mode.VERSUS
        assert len(games.finished) == HISTORY, "the latest only"
        latest = games.finished[0]
        assert (latest.mode, latest.score, latest.won, latest.level) == ("solo", alone.game.scores[0], None, None)
        assert all(g.won is not None and (g.mode, g.level) == ("versus", "easy") for g in games.finished[1:])
        assert games.daily == TODAY and your_games(store, TODAY - timedelta(days=1)).daily is not None
        record_game(store, finished_versus().game, player=0, mode="daily", opponent=None, day=TODAY)
        assert your_games(store, TODAY).daily is None, "played officially"
    assert [s.path for s in resumable()] == [save_path("versus-hard")]
    with pytest.raises(ValueError, match="cannot be read"):
        read_save(data_dir / "saved-broken.json")


def test_the_longest_lists_fit_80_by_24_in_both_languages() -> None:
    """Today's daily, eight games in progress (one of every kind a save can be) and nine finished: every row shows,
    none scrolled away, none cut."""
    rules = Rules.parse("farkle")
    saves = {
        "solo": (solo(rules, "You"), None), "race": (race(rules, "You"), None),
        "together": (together(rules, ["Ann", "Bob"]), None), "pad": (pad(rules, ["Ann", "Bob"]), None),
        "challenge-ABCDE": (challenge(Challenge.new(rng=random.Random(4)), "You"), None),
        **{f"versus-{level}": (versus(rules, "You", "Computer"), level) for level in ("easy", "medium", "hard")},
    }
    for slot, (setup, level) in saves.items():
        write_save(save_path(slot), setup, level, ())
    with Store() as store:
        for _ in range(HISTORY):
            done = finished_versus()
            record_game(store, done.game, player=0, mode="versus", opponent="hard",
                        record_json=json.dumps(done.record().to_json()))

    async def run(lang: str) -> None:
        app = make_app(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "your-games")
            text = screen_text(app)
            fits(text)
            rows = [line.strip()[:1] for line in text.splitlines() if re.match(r" +[a-i1-9]  ", line)]
            assert rows == [*"abcdefghi", *"123456789"], text

    for lang in ("en", "fr"):
        asyncio.run(run(lang))


# -- rematch ------------------------------------------------------------------------------------------


def test_the_rematch_of_a_resumed_game_keeps_its_own_rules_string_not_the_settings() -> None:
    async def run() -> None:
        app = make_app("farkle,target=2000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "versus-easy")
            await press(pilot, "r")
            await press(pilot, "q")
        app = make_app("5000", resume=Session.load())  # the settings changed since
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await play_to_the_end(pilot)
            assert "Enter rematch · R review · Esc menu" in screen_text(app)
            await press(pilot, "enter")
            again = table(app).session
            assert str(again.game.rules) == "farkle,target=2000" and again.level == "easy"
            turns = [e.player for e in again.game.events if e.kind is EventKind.TURN]
            assert again.game.first == 1 and turns[0] == 1, "the computer starts the rematch"

    asyncio.run(run())


@pytest.mark.parametrize(("item", "mode"), [("solo", Mode.SOLO), ("race", Mode.RACE)])
def test_the_rematch_of_a_game_alone_is_the_same_kind(item: str, mode: Mode) -> None:
    async def run() -> None:
        app = make_app("farkle,entry=500,target=1500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, item)
            before = str(table(app).session.game.rules)
            first = await play_to_the_end(pilot)
            await press(pilot, "enter")
            again = table(app)
            assert again is not first and again.session.mode is mode and not again.session.game.history
            assert str(again.session.game.rules) == before

    asyncio.run(run())


def test_the_score_pads_rematch_passes_the_first_seat_with_the_same_names() -> None:
    async def run() -> None:
        app = make_app("farkle,target=500")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "pad")
            app.screen.query_one("#names").value = ""
            await pilot.press(*"Ann, Bob", "enter")
            await settle(pilot)
            game = table(app).session.game
            for _ in range(4):  # 1200 a turn: the target is passed at once
                await press(pilot, "r")
                await press(pilot, *"111155", "enter")
                await press(pilot, *"123456", "b")
                if game.outcome is not None:
                    break
            assert game.first == 0
            await press(pilot, "enter")
            again = table(app).session
            assert again.mode is Mode.PAD and again.game.players == ("Ann", "Bob") and again.game.first == 1

    asyncio.run(run())


def test_a_friend_challenge_ends_with_challenge_back_a_new_code_on_the_same_preset() -> None:
    async def run() -> None:
        app = make_app("5000")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await menu(pilot, "challenge-new")
            old = app.screen
            assert isinstance(old, ChallengeCreatedScreen)
            await press(pilot, "enter")
            await play_to_the_end(pilot)
            assert "Enter challenge back · R review · Esc menu" in screen_text(app)
            await press(pilot, "enter")
            back = app.screen
            assert isinstance(back, ChallengeCreatedScreen)
            assert back.challenge.preset == old.challenge.preset == "5000" and back.challenge != old.challenge
            assert back.challenge.code in screen_text(app)
            await press(pilot, "enter")
            assert table(app).session.setup.challenge == back.challenge

    asyncio.run(run())


@pytest.mark.parametrize(("lang", "mode", "keys"), [
    ("en", Mode.DAILY, "Enter play again (unofficial) · R review · Esc menu"),
    ("fr", Mode.DAILY, "Entrée rejouer (non officiel) · R analyse · Échap menu"),
    ("fr", Mode.SOLO, "Entrée revanche · R analyse · Échap menu"),
    ("fr", Mode.CHALLENGE, "Entrée défier en retour · R analyse · Échap menu"),
])
def test_the_results_keys_say_what_enter_does(lang: str, mode: Mode, keys: str) -> None:
    from hotdice.tui.i18n import Translator
    from hotdice.tui.panels import KeysLine

    assert Translator(lang)(KeysLine.KEYS[KeysLine.over(mode)]) == keys


def test_no_finished_game_is_listed_from_before_its_record(data_dir: Path) -> None:
    """Statistics kept by an older version (no record): nothing to review, so not listed (as on the statistics)."""
    with Store() as store:
        record_game(store, finished_versus().game, player=0, mode="versus", opponent="easy")
        assert your_games(store, datetime(2025, 1, 1, tzinfo=UTC).date()).finished == ()
