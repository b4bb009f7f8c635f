"""Your games over HTTP on a real SQLite file: what waits for you (friend challenges received too), what is under
way, what is finished (paged), checked against the games' own views; the home page lists them, and says nothing
of empty lists."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from hotdice.store.web_models import WebChallenge, WebChallengeSeen, WebGame, WebPlayer, WebTable, WebTableSeat
from hotdice.web import Settings, create_app
from hotdice.web.services import challenges
from hotdice.web.services.games import REBUILT
from tests.web.come_back import KEY, app
from tests.web.test_web_api import act, new_game, play_out
from tests.web_support import next_intent

__all__ = ["app"]


def ids(listed: list[dict[str, object]]) -> list[object]:
    return [g["id"] for g in listed]


def test_a_new_visitor_has_no_lists_and_the_home_page_says_nothing_of_them(app: FastAPI) -> None:
    visitor = TestClient(app)
    found = visitor.get("/api/me/games").json()
    assert found == {"waiting": [], "in_progress": [], "finished": [], "next_offset": None,
                     "daily_to_play": datetime.now(UTC).date().isoformat()}
    assert 'id="your-games"' not in visitor.get("/").text


@pytest.mark.slow
def test_in_progress_then_finished_with_the_result_of_the_game(app: FastAPI) -> None:
    alice = TestClient(app)
    solo = new_game(alice, mode="solo")
    versus = new_game(alice, mode="versus", level="easy")
    found = alice.get("/api/me/games").json()
    assert set(ids(found["in_progress"])) == {solo["id"], versus["id"]} and found["finished"] == []
    assert all(not g["your_turn"] or g["mode"] != "online" for g in found["in_progress"])
    done = play_out(alice, versus)
    found = alice.get("/api/me/games").json()
    assert ids(found["in_progress"]) == [solo["id"]] and ids(found["finished"]) == [versus["id"]]
    entry = found["finished"][0]
    scores = [p["score"] for p in done["players"]]
    assert entry["scores"] == scores and entry["score"] == scores[0]
    assert entry["result"] == ("won" if scores[0] == max(scores) else "lost")
    assert entry["url"] == f"/play/{versus['id']}"
    assert entry["review_url"] == f"/review/{versus['id']}" and found["in_progress"][0]["review_url"] is None
    assert alice.get(entry["review_url"]).status_code == 200
    play_out(alice, solo)
    assert alice.get("/api/me/games").json()["finished"][0]["result"] is None  # nobody to beat
    home = alice.get("/").text
    assert 'id="games-finished"' in home and 'id="games-in-progress"' not in home
    assert versus["id"] in home and "Today’s daily game: not played yet" in home
    assert f'href="/review/{versus["id"]}"' in home and f'href="/review/{solo["id"]}"' in home


def test_an_online_table_waits_for_the_player_whose_turn_it_is(app: FastAPI) -> None:
    with TestClient(app) as alice, TestClient(app) as bob:
        code = alice.post("/api/tables", json={}).json()["code"]
        bob.post(f"/api/tables/{code}/join", json={"name": "Bob"})
        game_id = alice.post(f"/api/tables/{code}/start").json()["game"]
        view = alice.get(f"/api/games/{game_id}").json()
        mover, other = (alice, bob) if view["to_act"] in view["you"] else (bob, alice)
        assert ids(mover.get("/api/me/games").json()["waiting"]) == [game_id]
        assert ids(other.get("/api/me/games").json()["in_progress"]) == [game_id]
        assert mover.get("/api/me/games").json()["waiting"][0]["url"] == f"/t/{code}"
        view = mover.get(f"/api/games/{game_id}").json()
        while view["to_act"] in view["you"]:
            view = act(mover, view, next_intent(view))["game"]
        assert ids(other.get("/api/me/games").json()["waiting"]) == [game_id]
        assert mover.get("/api/me/games").json()["waiting"] == []


@pytest.mark.slow
def test_the_finished_games_come_a_page_at_a_time_latest_first(app: FastAPI) -> None:
    alice = TestClient(app)
    first = play_out(alice, new_game(alice, mode="versus", level="easy"))
    with app.state.db.session() as session:
        row = session.get(WebGame, first["id"])
        assert row is not None
        start = datetime.now(UTC)
        for n in range(44):
            session.add(WebGame(id=secrets.token_urlsafe(12), mode=row.mode, owner_id=row.owner_id,
                                record=row.record, action=row.action, seats=row.seats, over=True, score=row.score,
                                turns=row.turns, updated_at=start + timedelta(seconds=n)))
        session.commit()
        expected = list(session.scalars(select(WebGame.id).order_by(WebGame.updated_at.desc(), WebGame.id)))
    seen, offset = [], 0
    while offset is not None:
        page = alice.get("/api/me/games", params={"offset": offset, "limit": 20}).json()
        assert len(page["finished"]) <= 20
        seen += ids(page["finished"])
        offset = page["next_offset"]
    assert seen == expected and len(seen) == 45
    assert alice.get("/api/me/games", params={"limit": 0}).status_code == 422
    assert alice.get("/api/me/games", params={"limit": 101}).status_code == 422


def test_the_daily_waits_until_the_official_attempt_is_made(app: FastAPI) -> None:
    alice, bob = TestClient(app), TestClient(app)
    new_game(alice, mode="solo")
    play_out(bob, new_game(bob, mode="solo"))  # Bob's page of finished games is not empty; Alice's is
    for player in (alice, bob):
        today = datetime.now(UTC).date().isoformat()
        assert [player.get("/api/me/games", params={"offset": offset}).json()["daily_to_play"]
                for offset in (0, 20)] == [today, today]
        player.post("/api/daily")
        assert [player.get("/api/me/games", params={"offset": offset}).json()["daily_to_play"]
                for offset in (0, 20)] == [None, None]


def test_the_schema_documents_the_lists(app: FastAPI) -> None:
    schema = TestClient(app).get("/api/openapi.json").json()
    answer = schema["paths"]["/api/me/games"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/YourGames"}
    assert set(schema["components"]["schemas"]["YourGames"]["properties"]) == {
        "waiting", "in_progress", "finished", "daily_to_play", "next_offset"}


# -- the two lists a player's games are read from, on SQLite and PostgreSQL --------------------------------


@pytest.fixture
def either(database_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    """The app on SQLite, then PostgreSQL: the lists are read by one statement per list whose plan is each
    backend's own."""
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url).unlimited())
    yield web
    web.state.db.close()


@pytest.mark.slow
def test_a_seated_player_sees_the_tables_of_others_and_the_host_sees_them_once(either: FastAPI) -> None:
    alice, bob, carol = TestClient(either), TestClient(either), TestClient(either)
    new_game(carol, mode="solo")  # Carol has played, but sits at no table
    code = bob.post("/api/tables", json={"rules": "farkle,target=1000"}).json()["code"]
    alice.post(f"/api/tables/{code}/join", json={"name": "Alice"})
    game_id = bob.post(f"/api/tables/{code}/start").json()["game"]
    for player in (alice, bob):
        found = player.get("/api/me/games").json()
        assert ids(found["waiting"]) + ids(found["in_progress"]) == [game_id]
        assert REBUILT.get(game_id) is not None  # only read to know whose turn: kept for the next move
    assert carol.get("/api/me/games").json()["waiting"] == []
    view = alice.get(f"/api/games/{game_id}").json()
    while view["outcome"] is None:
        mover = alice if view["to_act"] in view["you"] else bob
        seen = mover.get(f"/api/games/{game_id}").json()
        act(mover, seen, next_intent(seen))
        view = alice.get(f"/api/games/{game_id}").json()
    results = set()
    for player, seat in ((alice, 1), (bob, 0)):
        found = player.get("/api/me/games").json()
        assert found["waiting"] == found["in_progress"] == [] and ids(found["finished"]) == [game_id]
        entry = found["finished"][0]
        assert entry["url"] == f"/t/{code}" and entry["you"] == [seat] and entry["mode"] == "online"
        results.add(entry["result"])
    assert results == {"won", "lost"} or results == {"won"}  # a tie: both won
    assert carol.get("/api/me/games").json()["finished"] == []


def test_pages_neither_repeat_nor_skip_games_of_the_same_second_from_both_lists(either: FastAPI) -> None:
    alice, bob = TestClient(either), TestClient(either)
    done = play_out(alice, new_game(alice, mode="versus", level="easy", rules="farkle,target=1000"))
    first_table = bob.post("/api/tables", json={}).json()["code"]  # Bob, a player
    made: list[tuple[datetime, str]] = []
    at_tables: set[str] = set()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with either.state.db.session() as session:
        row, table = session.get(WebGame, done["id"]), session.get(WebTable, first_table)
        assert row is not None and table is not None
        bob_id = table.host_id
        made.append((row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC), row.id))
        for n in range(30):
            game_id, at = secrets.token_hex(8), start + timedelta(seconds=n // 4)  # four games a second
            seated = n % 3 == 0  # at one of Bob's tables, Alice seated
            code = secrets.token_hex(4).upper() if seated else None
            seats = [{"kind": "human", "player": bob_id}, {"kind": "human", "player": row.owner_id}]
            session.add(WebGame(id=game_id, mode="online" if seated else row.mode, record=row.record,
                                owner_id=bob_id if seated else row.owner_id, action=row.action, over=True,
                                seats=json.dumps(seats) if seated else row.seats, score=row.score,
                                turns=row.turns, table_code=code, updated_at=at))
            if code is not None:
                at_tables.add(game_id)
                session.flush()
                session.add(WebTable(code=code, host_id=bob_id, rules="farkle", game_id=game_id))
                session.add_all([WebTableSeat(table_code=code, seat=0, player_id=bob_id, name="Bob"),
                                 WebTableSeat(table_code=code, seat=1, player_id=row.owner_id, name="Alice")])
            made.append((at, game_id))
        session.commit()
    expected = [game_id for _, game_id in sorted(made, key=lambda m: (-m[0].timestamp(), m[1]))]
    for limit in (1, 4, 7):
        seen, offset = [], 0
        while offset is not None:
            page = alice.get("/api/me/games", params={"offset": offset, "limit": limit}).json()
            seen += ids(page["finished"])
            offset = page["next_offset"]
        assert seen == expected, limit
    # Bob made the tables' games and holds a seat at each: each once
    assert ids(bob.get("/api/me/games", params={"limit": 100}).json()["finished"]) == [
        game_id for game_id in expected if game_id in at_tables]
def test_a_friend_challenge_received_waits_until_played(app: FastAPI) -> None:
    alice, bob, carol = TestClient(app), TestClient(app), TestClient(app)
    code = alice.post("/api/challenges", json={"preset": "5000"}).json()["code"]
    alice.get(f"/c/{code}")
    assert alice.get("/api/me/games").json()["waiting"] == []  # her own challenge is not received
    carol.get(f"/c/{code}")  # a browser with no player yet: nothing to list it in
    carol.post("/api/me", json={"name": "Carol"})
    assert carol.get("/api/me/games").json()["waiting"] == []
    bob.post("/api/me", json={"name": "Bob"})
    assert bob.get("/api/me/games").json()["waiting"] == []
    for _ in range(2):  # opened twice, by its page and by the API: one entry
        assert bob.get(f"/c/{code.lower()}", follow_redirects=True).status_code == 200
        assert bob.get(f"/api/challenges/{code}").status_code == 200
    with app.state.db.session() as session:
        seen = session.scalars(select(WebChallengeSeen)).all()
        assert [(s.challenge_code, s.player_id) for s in seen] == [(code, seen[0].player_id)]
    (entry,) = bob.get("/api/me/games").json()["waiting"]
    assert entry | {"updated_at": None} == {
        "id": code, "url": f"/c/{code}", "mode": "challenge", "rules": "5000", "players": 1, "you": [0], "score": 0,
        "scores": [0], "day": None, "challenge": code, "table": None, "updated_at": None, "your_turn": True,
        "result": None, "review_url": None}
    assert datetime.fromisoformat(entry["updated_at"]) == seen[0].seen_at.replace(tzinfo=UTC)
    for lang, words in (("en", ("Friend challenge", "received")), ("fr", ("Défi entre amis", "reçu"))):
        home = bob.get("/", headers={"Accept-Language": lang}).text
        waiting = home.split('id="games-waiting"')[1].split("</ul>")[0]
        assert f'href="/c/{code}"' in waiting and all(word in waiting for word in words), waiting
        assert 'data-waiting="2"' in home  # today's daily and the challenge
    attempt = bob.post(f"/api/challenges/{code}/play").json()
    found = bob.get("/api/me/games").json()
    assert found["waiting"] == [] and ids(found["in_progress"]) == [attempt["id"]]
    assert found["in_progress"][0]["challenge"] == code
    assert f'href="/c/{code}"' not in bob.get("/").text


def test_a_challenge_received_leaves_the_list_when_it_closes(app: FastAPI) -> None:
    alice, bob = TestClient(app), TestClient(app)
    bob.post("/api/me", json={"name": "Bob"})
    closed, expiring, open_ = (alice.post("/api/challenges", json={}).json()["code"] for _ in range(3))
    for code in (closed, expiring, open_):
        bob.get(f"/c/{code}")
    assert set(ids(bob.get("/api/me/games").json()["waiting"])) == {closed, expiring, open_}
    assert alice.post(f"/api/challenges/{closed}/close").status_code == 200
    assert set(ids(bob.get("/api/me/games").json()["waiting"])) == {expiring, open_}
    with app.state.db.session() as session:
        found = session.get(WebChallenge, expiring)
        assert found is not None
        found.closes_at = datetime.now(UTC) + timedelta(seconds=1)
        session.commit()
    app.state.clock.shift = timedelta(seconds=2)
    assert ids(bob.get("/api/me/games").json()["waiting"]) == [open_]
    carol = TestClient(app)
    carol.post("/api/me", json={"name": "Carol"})
    carol.get(f"/c/{closed}")  # opened once closed: nothing waits, nothing noted
    with app.state.db.session() as session:
        assert session.scalar(select(func.count()).select_from(WebChallengeSeen)) == 3  # Bob's


def test_two_looks_at_once_note_a_challenge_once(tmp_path: Path, database_url: str) -> None:
    """The second look reads before the first's row is committed, then meets it when it writes its own
    (PostgreSQL; SQLite commits the first's savepoint at once: the second finds the row when it reads)."""
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=KEY).unlimited())
    try:
        code = TestClient(web).post("/api/challenges", json={}).json()["code"]
        TestClient(web).post("/api/me", json={"name": "Bob"})
        db = web.state.db
        with db.session() as session:
            bob = session.scalars(select(WebPlayer.id).where(WebPlayer.name == "Bob")).one()
        failed: list[Exception] = []

        def look() -> None:
            with db.session() as other:
                try:
                    challenges.opened(other, code, other.get(WebPlayer, bob))
                    other.commit()
                except Exception as exc:  # what the test reports
                    failed.append(exc)

        with db.session() as first:
            challenges.opened(first, code, first.get(WebPlayer, bob))  # noted, not committed yet
            second = threading.Thread(target=look)
            second.start()
            second.join(0.5)  # it waits for the first's row
            first.commit()
            second.join()
        assert failed == []
        with db.session() as session:
            assert session.scalars(select(WebChallengeSeen.player_id)).all() == [bob]
    finally:
        web.state.db.close()
