"""What a server process remembers between requests (:mod:`hotdice.web.memo`) never changes an answer.

A game kept rebuilt in memory must be exactly the game its record replays to, and must never hide a move
written by another process; a device's player id is remembered only once that player is stored. Each test
runs on SQLite, then PostgreSQL (``database_url``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event

from hotdice.game.dice import SecureDice
from hotdice.game.engine import Phase
from hotdice.game.record import Record, replay
from hotdice.store.web_models import WebGame
from hotdice.web import Settings, create_app
from hotdice.web.memo import Recent
from hotdice.web.services import games
from hotdice.web.services.games import Loaded
from tests.web_support import next_intent


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url).unlimited())
    yield web
    web.state.db.close()


@pytest.fixture
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def step(client: TestClient, view: dict[str, object]) -> dict[str, object]:
    """The next action of the game: the device's intent, or the computer's step."""
    seat = view["to_act"]
    assert isinstance(seat, int)
    seats = view["seats"]
    assert isinstance(seats, list)
    if seats[seat]["computer"]:
        answer = client.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]})
    else:
        answer = client.post(f"/api/games/{view['id']}/act", json={"n": view["n"], **next_intent(view)})
    assert answer.status_code == 200, answer.text
    found = answer.json()["game"]
    assert isinstance(found, dict)
    return found


def test_a_kept_game_answers_as_its_replayed_record(app: FastAPI, alice: TestClient) -> None:
    made = alice.post("/api/games", json={"mode": "versus", "level": "medium"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    for _ in range(40):
        if view["outcome"] is not None:
            break
        view = step(alice, view)  # played on the game kept since the last action
        assert (games.REBUILT.get(view["id"]) is not None) == (view["outcome"] is None)
        games.REBUILT.clear()
        assert alice.get(f"/api/games/{view['id']}").json() == view  # rebuilt from the record alone
    assert view["n"] >= 40 or view["outcome"] is not None


def test_a_move_written_by_another_process_is_never_hidden_by_a_kept_game(app: FastAPI, alice: TestClient) -> None:
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    while view["phase"] != Phase.SET_ASIDE.value:  # a first roll may be a farkle (2.3 % with six dice)
        view = step(alice, view)
    assert games.REBUILT.get(view["id"]) is not None
    # Another process moves the game on: it replays the record and writes the set-aside and a new roll.
    written = _move_on_elsewhere(app, view)
    now = alice.get(f"/api/games/{view['id']}").json()
    assert now["n"] == len(written) == view["n"] + 3
    games.REBUILT.clear()
    assert alice.get(f"/api/games/{view['id']}").json() == now  # what the record alone replays to
    # And the device's stale intent, at the number it saw, changes nothing.
    stale = alice.post(f"/api/games/{view['id']}/act", json={"n": view["n"], "then": "bank"})
    assert stale.status_code == 409 and stale.json()["game"]["n"] == now["n"]


def _move_on_elsewhere(app: FastAPI, view: dict[str, object]) -> list[str]:
    """Another process plays the first set-aside and a roll on the stored game (new dice); the history written."""
    with app.state.db.session() as session:
        row = session.get(WebGame, view["id"])
        assert row is not None
        game = replay(Record.from_json(row.record))
        options = view["options"]
        assert isinstance(options, list)
        game.apply(options[0]["set_aside"], player=0)
        game.apply("roll", player=0)
        game.apply_roll(SecureDice().roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
        games.save(session, Loaded(row, game, None, json.loads(row.seats)))
        session.commit()
        return list(map(str, game.history))


def test_an_action_on_a_kept_game_is_written_without_reading_the_row(app: FastAPI, alice: TestClient) -> None:
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    statements: list[str] = []
    engine = app.state.db.store.engine
    listener = lambda *args: statements.append(str(args[2]))  # noqa: E731 (conn, cursor, statement, ...)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        view = step(alice, view)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    # On PostgreSQL the live update's NOTIFY goes in the same statement: WITH saved AS (UPDATE ...) SELECT pg_notify
    postgres = engine.dialect.name == "postgresql"
    assert [s.split()[0] for s in statements if "web_games" in s] == ["WITH" if postgres else "UPDATE"], statements
    written = [s for s in statements if "web_games" in s]
    assert [s for s in statements if "pg_notify" in s] == (written if postgres else [])
    games.REBUILT.clear()
    assert alice.get(f"/api/games/{view['id']}").json() == view  # what the record alone replays to


def test_an_action_on_a_kept_game_moved_on_by_another_process_is_found_out(app: FastAPI, alice: TestClient) -> None:
    """The device repeats, at the number it saw, the set-aside and roll another process already wrote (a retry
    through another worker): the kept game is behind, its UPDATE finds the row moved on, nothing is overwritten."""
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    while view["phase"] != Phase.SET_ASIDE.value:
        view = step(alice, view)
    assert games.REBUILT.get(view["id"]) is not None
    written = _move_on_elsewhere(app, view)
    same = alice.post(f"/api/games/{view['id']}/act",
                      json={"n": view["n"], "keep": view["options"][0]["set_aside"], "then": "roll"})
    assert same.status_code == 200 and same.json()["applied"] is False
    assert same.json()["game"]["n"] == len(written)
    games.REBUILT.clear()
    assert alice.get(f"/api/games/{view['id']}").json() == same.json()["game"]  # as the record replays
    with app.state.db.session() as session:
        row = session.get(WebGame, view["id"])
        assert row is not None and list(Record.from_json(row.record).history) == written


def test_a_finished_game_is_not_kept_and_still_answers_as_its_record(app: FastAPI, alice: TestClient) -> None:
    """Nothing plays a finished game any more: keeping it would only give the garbage collector more to go over."""
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    while view["outcome"] is None:
        assert games.REBUILT.get(view["id"]) is not None  # kept from the first look on
        view = step(alice, view)
    assert games.REBUILT.get(view["id"]) is None
    assert alice.get(f"/api/games/{view['id']}").json() == view  # rebuilt from the record
    assert games.REBUILT.get(view["id"]) is None


def test_a_game_only_read_by_its_page_or_a_hint_stays_kept(app: FastAPI, alice: TestClient) -> None:
    """The page and the coach read the game without changing it: they give it back, so the next action does not
    rebuild it from its record."""
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    view = alice.get(f"/api/games/{made['id']}").json()
    for read in (f"/play/{view['id']}", f"/api/games/{view['id']}/hint", f"/play/{view['id']}"):
        assert alice.get(read).status_code == 200
        kept = games.REBUILT.get(view["id"])
        assert kept is not None and len(kept.game.history) == view["n"]
    assert TestClient(app).get(f"/api/games/{view['id']}/hint").status_code == 403  # another device's game
    assert games.REBUILT.get(view["id"]) is not None  # refused, still kept


def test_a_device_is_remembered_only_once_its_player_is_stored(app: FastAPI, alice: TestClient) -> None:
    view = alice.get(f"/api/games/{alice.post('/api/games', json={'mode': 'solo'}).json()['id']}").json()
    carol = TestClient(app)  # the app is running already (alice's lifespan)
    # Her first request (no cookie yet) is an action in someone else's game: refused, and the player made
    # for her device in that request is not stored (on PostgreSQL; SQLite stores it at once, the SAVEPOINT
    # being its outermost transaction under pysqlite).
    refused = carol.post(f"/api/games/{view['id']}/act", json={"n": view["n"], "then": "roll"})
    assert refused.status_code == 403
    mine = carol.get(f"/api/games/{carol.post('/api/games', json={'mode': 'solo'}).json()['id']}").json()
    assert mine["you"] == [0]
    assert carol.post(f"/api/games/{mine['id']}/act", json={"n": mine["n"], "then": "roll"}).status_code == 200
    assert carol.post("/api/me", json={"name": "Carol"}).status_code == 200
    again = carol.get(f"/api/games/{carol.post('/api/games', json={'mode': 'solo'}).json()['id']}").json()
    assert again["players"][0]["name"] == "Carol"  # names are read from the database, not remembered


def test_recent_keeps_the_most_recently_used() -> None:
    recent: Recent[str, int] = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # now the most recent
    recent.put("c", 3)
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == (1, None, 3)
    assert recent.pop("a") == 1 and recent.get("a") is None and len(recent) == 1
