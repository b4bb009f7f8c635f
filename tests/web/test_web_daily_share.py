"""The daily's share text and the daily streak over HTTP, on a real SQLite file: refused until the official
attempt is over, then its figures checked against the daily page and a hand count of the game's history, and
the streak across days the clock is moved to (a day missed ends it; today not yet played does not)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.game.record import Record, replay
from hotdice.store.web_models import WebGame
from tests.store.test_stats import count
from tests.web.come_back import app
from tests.web.test_web_api import play_out

__all__ = ["app"]


def play_daily(client: TestClient) -> str:
    made = client.post("/api/daily").json()
    play_out(client, client.get(f"/api/games/{made['id']}").json())
    return str(made["id"])


def test_the_share_is_refused_until_the_official_attempt_is_over_then_says_its_figures(app: FastAPI) -> None:
    alice, bob = TestClient(app), TestClient(app)
    day = datetime.now(UTC).date().isoformat()
    assert alice.get(f"/api/daily/{day}/share").status_code == 409  # never played
    started = alice.post("/api/daily").json()
    refused = alice.get(f"/api/daily/{day}/share")
    assert refused.status_code == 409 and refused.json()["code"] == "conflict" and day in refused.json()["detail"]
    assert alice.get("/api/daily/2026-13-01/share").status_code == 400
    play_out(alice, alice.get(f"/api/games/{started['id']}").json())
    bob.post("/api/me", json={"name": "Bob"})
    play_daily(bob)
    shared = alice.get(f"/api/daily/{day}/share")
    assert shared.status_code == 200, shared.text
    body = shared.json()
    page = alice.get("/api/daily").json()
    mine = next(r for r in page["leaderboard"] if r["you"])
    assert (body["score"], body["par"], body["rank"], body["players"]) == (
        mine["score"], page["par"], mine["rank"], len(page["leaderboard"]))
    assert (body["daily_streak"], body["best_daily_streak"]) == (1, 1)
    with app.state.db.session() as session:
        row = session.get(WebGame, started["id"])
        assert row is not None
        seat = count(replay(Record.from_json(row.record)))[0]
    assert [m == "farkle" for m in body["marks"]] == seat.farkled
    assert len(body["text"].splitlines()[1]) == len(seat.farkled)  # one emoji a turn
    assert body["plain"].isascii() and day in body["text"]
    french = alice.get(f"/api/daily/{day}/share", headers={"Accept-Language": "fr"}).json()
    assert "rang" in french["text"] and french["marks"] == body["marks"]
    # A later attempt is not the official one: the share stays the official attempt's.
    play_daily(alice)
    assert alice.get(f"/api/daily/{day}/share").json()["score"] == body["score"]


def test_the_streak_counts_days_in_a_row_and_a_missed_day_ends_it(app: FastAPI) -> None:
    alice = TestClient(app)
    clock = app.state.clock
    start = datetime.now(UTC).replace(hour=12) - timedelta(days=10)

    def on(day: int) -> None:
        clock.move_to(start + timedelta(days=day))

    def streak() -> tuple[int, int]:
        stats = alice.get("/api/stats").json()
        return stats["daily_streak"], stats["best_daily_streak"]

    assert alice.get("/api/stats").json() == {"games": 0}  # a visitor who never played: as before
    for day in (0, 1, 2):
        on(day)
        play_daily(alice)
    assert streak() == (3, 3)
    on(3)
    assert streak() == (3, 3)  # today not yet played
    on(4)
    assert streak() == (0, 3)  # yesterday missed
    play_daily(alice)
    assert streak() == (1, 3)
    on(5)
    play_daily(alice)
    day = (start + timedelta(days=5)).date().isoformat()
    assert alice.get(f"/api/daily/{day}/share").json()["daily_streak"] == 2
    assert [d["day"] for d in alice.get("/api/stats").json()["dailies"]] == [
        (start + timedelta(days=n)).date().isoformat() for n in (0, 1, 2, 4, 5)]
    assert streak() == (2, 3)
