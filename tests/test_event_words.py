"""One telling of a game's events: the terminal and the web word one event list with the same catalogue keys and
the same values (the play layer's, :class:`hotdice.play.view.Entry`), and the browser's script fills a key with
its values as the Python side does."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hotdice.game.record import Record, replay
from hotdice.game.rules import Rules
from hotdice.i18n import LANGUAGES, Namer, Translator, catalog
from hotdice.i18n.told import said
from hotdice.play.modes import Mode, Setup
from hotdice.tui import log as terminal_log
from hotdice.tui.app import HotDiceApp
from hotdice.tui.screens.table import TableScreen
from hotdice.tui.session import Session
from hotdice.web import Settings, create_app

HD_JS = Path(__file__).resolve().parents[1] / "src" / "hotdice" / "web" / "static" / "hd.js"
RULES = "farkle,three_farkles=500,target=1000"

# A score pad game of Ann and Bob, typed in: a bank, farkles with nothing and with a turn total to lose, the
# three-farkle penalty with nothing to take and cut at 0, hot dice, the last round and the end.
INTENTS: list[dict[str, str]] = [
    {"then": "roll", "dice": "155234"}, {"keep": "15", "then": "bank"},  # Ann banks 150
    {"then": "roll", "dice": "223466"},  # Bob farkles
    {"then": "roll", "dice": "223466"},  # Ann farkles
    {"then": "roll", "dice": "223466"},  # Bob
    {"then": "roll", "dice": "223466"},  # Ann
    {"then": "roll", "dice": "223466"},  # Bob's third: the penalty takes nothing at 0
    {"then": "roll", "dice": "223466"},  # Ann's third: cut at 0, 150 of the 500
    {"then": "roll", "dice": "155234"}, {"keep": "15", "then": "roll", "dice": "2234"},  # Bob loses 150
    {"then": "roll", "dice": "111155"}, {"keep": "111155", "then": "bank"},  # Ann: hot dice, past the target
    {"then": "roll", "dice": "223466"},  # Bob's last turn farkles: the game is over
]
KEYS = {
    "log.turn", "log.roll", "log.set_aside", "log.bank", "log.farkle", "log.farkle_lost", "log.penalty_none",
    "log.penalty_cut", "log.hot_dice", "log.last_round", "log.game_over",
}


@pytest.fixture
def web_game(tmp_path: Path) -> Iterator[tuple[list[dict[str, Any]], Record]]:
    """The pad game played through the web's API: its events as the browser gets them, and its record."""
    app = create_app(Settings(data_dir=tmp_path).unlimited())
    with TestClient(app) as client:
        made = client.post("/api/games", json={"mode": "pad", "names": ["Ann", "Bob"], "rules": RULES})
        assert made.status_code == 201, made.text
        view = client.get(f"/api/games/{made.json()['id']}").json()
        for intent in INTENTS:
            answer = client.post(f"/api/games/{view['id']}/act", json={"n": view["n"], **intent})
            assert answer.status_code == 200, answer.text
            view = answer.json()["game"]
        assert view["outcome"] is not None
        events = client.get(f"/api/games/{view['id']}?since=0").json()["events"]
        record = Record.from_json(client.get(f"/api/games/{view['id']}/record").text)
    app.state.db.close()
    yield events, record


def terminal_words(record: Record, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The key and values of every line the terminal's log words, for the game of ``record`` resumed there."""
    asked: list[tuple[str, dict[str, Any]]] = []

    def spy(t: Translator, key: str, values: Mapping[str, Any], names: Namer | None = None) -> str:
        asked.append((key, json.loads(json.dumps(values))))
        return said(t, key, values, names)

    monkeypatch.setattr(terminal_log, "said", spy)
    session = Session(Setup(Mode.PAD, replay(record), None), resumed=True)

    async def run() -> None:
        app = HotDiceApp(rules=Rules.parse(RULES), lang="en", pace=0.0, rng=random.Random(7), warm=False)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            app.push_screen(TableScreen(session))
            await pilot.pause()

    asyncio.run(run())
    return asked


def test_the_terminal_and_the_web_word_one_event_list_with_the_same_keys_and_values(
    web_game: tuple[list[dict[str, Any]], Record], monkeypatch: pytest.MonkeyPatch
) -> None:
    events, record = web_game
    web = [(e["key"], e["values"]) for e in events]
    assert {key for key, _ in web} == KEYS  # every kind of line the game has, each case of the penalty
    terminal = terminal_words(record, monkeypatch)
    assert terminal[: len(web)] == web  # the log, line by line
    assert all(again == web[-1] for again in terminal[len(web):])  # the end's line, shown above the dice too
    rounds = [values["round"] for key, values in web if key == "log.turn"]
    assert rounds == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]  # the player's own turn, from the play layer
    cut = next(values for key, values in web if key == "log.penalty_cut")
    assert (cut["name"], cut["points"], cut["penalty"], cut["score"]) == ("Ann", 150, 500, 0)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the browser's script")
def test_the_browsers_script_fills_each_key_with_its_values_as_the_python_side_does(
    web_game: tuple[list[dict[str, Any]], Record],
) -> None:
    events, _ = web_game
    for lang in LANGUAGES:
        t = Translator(lang)
        expected = [said(t, e["key"], e["values"]) for e in events]
        script = f"""
            const self = {{ hotdiceCatalog: {json.dumps(dict(catalog(lang)))} }};
            const noop = () => {{}};
            const document = {{ documentElement: {{ lang: "{lang}" }}, addEventListener: noop,
              querySelectorAll: () => [], getElementById: () => null }};
            const window = {{ matchMedia: () => ({{ matches: false }}), location: {{ href: "" }} }};
            const navigator = {{}};
            {HD_JS.read_text(encoding="utf-8")}
            const events = {json.dumps(events)};
            process.stdout.write(JSON.stringify(events.map((e) => HD.said(e.key, e.values, [null, null]))));
        """
        run = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == expected, lang
