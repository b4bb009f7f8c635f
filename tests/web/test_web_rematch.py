"""Rematch over HTTP on a real SQLite file: refused before the end and for the daily, made once (a double tap
answers 409 with the same rematch), the same players and rules with the first seat passed on, read from the
stored records; a friend challenge is challenged back; an online table's rematch seats those who accept, in
the old order with the first seat passed on, whatever order they accepted in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from hotdice.store.web_models import WebChallenge, WebGame
from tests.web.come_back import app
from tests.web.test_web_api import act, new_game, play_out
from tests.web.test_web_review_modes import pad_game
from tests.web_support import next_intent

__all__ = ["app"]


def record(app: FastAPI, game_id: str) -> dict[str, Any]:
    with app.state.db.session() as session:
        row = session.get(WebGame, game_id)
        assert row is not None
        found: dict[str, Any] = json.loads(row.record)
        return found


def games(app: FastAPI) -> int:
    with app.state.db.session() as session:
        return int(session.scalar(select(func.count()).select_from(WebGame)) or 0)


@pytest.mark.slow
def test_versus_refused_before_the_end_then_made_once_with_the_other_seat_first(app: FastAPI) -> None:
    alice, bob = TestClient(app), TestClient(app)
    view = new_game(alice, mode="versus", level="easy", names=["Ann"])
    early = alice.post(f"/api/games/{view['id']}/rematch")
    assert early.status_code == 409 and early.json()["message"]["key"] == "error.rematch_not_over"
    play_out(alice, view)
    assert bob.post(f"/api/games/{view['id']}/rematch").status_code == 403
    assert alice.post("/api/games/AAAAAAAAAAAAAAAA/rematch").status_code == 404
    before = games(app)
    made = alice.post(f"/api/games/{view['id']}/rematch")
    assert made.status_code == 201, made.text
    again = alice.post(f"/api/games/{view['id']}/rematch")  # the double tap
    assert again.status_code == 409 and again.json()["rematch"] == made.json()
    assert again.json()["message"]["key"] == "error.rematch_exists"
    assert games(app) == before + 1
    new_id = made.json()["id"]
    assert made.json() == {"kind": "game", "id": new_id, "url": f"/play/{new_id}"}
    old, new = record(app, view["id"]), record(app, new_id)
    assert (new["rules"], new["players"], new["mode"]) == (old["rules"], old["players"], old["mode"])
    assert new["first"] == (old["first"] + 1) % 2 and new["history"] == []
    shown = alice.get(f"/api/games/{new_id}").json()
    assert [s["computer"] for s in shown["seats"]] == [s["computer"] for s in view["seats"]] == [None, "easy"]
    assert shown["to_act"] == new["first"]


def test_together_passes_the_first_seat_round_the_table(app: FastAPI) -> None:
    alice = TestClient(app)
    view = new_game(alice, mode="together", names=["Ann", "Bea", "Cy"], rules="farkle,target=1000")
    firsts = [record(app, view["id"])["first"]]
    for _ in range(3):
        play_out(alice, view)
        made = alice.post(f"/api/games/{view['id']}/rematch").json()
        view = alice.get(made["url"].replace("/play/", "/api/games/")).json()
        firsts.append(record(app, view["id"])["first"])
        assert record(app, view["id"])["rules"] == str(record(app, view["id"])["rules"])
    assert firsts == [0, 1, 2, 0]
    assert view["rules_shown"] == "farkle,target=1000"


@pytest.mark.parametrize("mode", ["solo", "race", "pad"])
def test_a_game_of_one_device_is_played_again_with_its_seats_and_rules(app: FastAPI, mode: str) -> None:
    """Solo and the race (one seat: it starts again), and the score pad (the next player starts): the same mode,
    rules string and names; a new game with nothing played."""
    alice = TestClient(app)
    if mode == "pad":
        view = pad_game(alice)
    else:
        view = play_out(alice, new_game(alice, mode=mode, names=["Ann"], rules="5000,target=1500"))
    made = alice.post(f"/api/games/{view['id']}/rematch")
    assert made.status_code == 201, made.text
    assert made.json()["kind"] == "game"
    old, new = record(app, view["id"]), record(app, made.json()["id"])
    assert (new["mode"], new["rules"], new["players"]) == (old["mode"], old["rules"], old["players"])
    assert new["first"] == (old["first"] + 1) % len(old["players"]) and new["history"] == []
    shown = alice.get(made.json()["url"].replace("/play/", "/api/games/")).json()
    assert shown["mode"] == mode and shown["to_act"] == new["first"] and shown["outcome"] is None


@pytest.mark.slow
def test_the_daily_has_no_rematch(app: FastAPI) -> None:
    alice = TestClient(app)
    daily = alice.post("/api/daily").json()
    play_out(alice, alice.get(f"/api/games/{daily['id']}").json())
    refused = alice.post(f"/api/games/{daily['id']}/rematch")
    assert refused.status_code == 409 and refused.json()["message"]["key"] == "error.rematch_daily"


def test_a_friend_challenge_is_challenged_back_on_the_same_preset(app: FastAPI) -> None:
    alice, bob = TestClient(app), TestClient(app)
    code = alice.post("/api/challenges", json={"preset": "5000"}).json()["code"]
    attempt = bob.post(f"/api/challenges/{code}/play").json()
    play_out(bob, bob.get(f"/api/games/{attempt['id']}").json())
    back = bob.post(f"/api/games/{attempt['id']}/rematch")
    assert back.status_code == 201 and back.json()["kind"] == "challenge"
    new_code = back.json()["id"]
    assert back.json()["url"] == f"/c/{new_code}" and new_code != code
    with app.state.db.session() as session:
        made = session.get(WebChallenge, new_code)
        assert made is not None and made.preset == "5000"
    assert bob.post(f"/api/games/{attempt['id']}/rematch").json()["rematch"]["id"] == new_code


def table_played_out(clients: list[TestClient], rules: str = "farkle,target=1000", roll_off: bool = False) -> str:
    """An online table of ``clients`` (the first hosts; the others join in order, named), played to its end."""
    host, *guests = clients
    code = host.post("/api/tables", json={"rules": rules, "roll_off": roll_off}).json()["code"]
    for n, guest in enumerate(guests):
        assert guest.post(f"/api/tables/{code}/join", json={"name": f"Guest {n + 1}"}).status_code == 200
    game_id: str = host.post(f"/api/tables/{code}/start").json()["game"]
    view = host.get(f"/api/games/{game_id}").json()
    while view["outcome"] is None:
        player = clients[view["to_act"]]
        view = player.get(f"/api/games/{game_id}").json()
        view = act(player, view, next_intent(view))["game"]
    return game_id


def test_an_online_rematch_seats_those_who_accept(app: FastAPI) -> None:
    with TestClient(app) as alice, TestClient(app) as bob, TestClient(app) as carol:
        game_id = table_played_out([alice, bob, carol])
        made = bob.post(f"/api/games/{game_id}/rematch")
        assert made.status_code == 201 and made.json()["kind"] == "table"
        table = made.json()["id"]
        accepted = alice.post(f"/api/games/{game_id}/rematch")
        assert accepted.status_code == 409 and accepted.json()["rematch"] == made.json(), accepted.text
        state = alice.get(f"/api/tables/{table}").json()
        assert state["rules"] == "farkle,target=1000" and state["seated"] and len(state["seats"]) == 2
        assert state["game"] is None  # its host (Bob) starts it with those who accepted; Carol's seat is free
        started = bob.post(f"/api/tables/{table}/start").json()
        assert len(record(app, started["game"])["players"]) == 2


@pytest.mark.slow
@pytest.mark.parametrize("roll_off", [False, True], ids=["no-roll-off", "roll-off"])
@pytest.mark.parametrize(("declines", "accepting"), [(3, [2, 0, 1]), (1, [3, 2, 0])], ids=["other", "next"])
def test_an_online_rematch_passes_the_first_seat_whatever_order_they_accept_in(
        app: FastAPI, roll_off: bool, declines: int, accepting: list[int]) -> None:
    """Seats counted from the one who started the old game (0): the one after them (1) declines, or another."""
    with TestClient(app) as ann, TestClient(app) as bob, TestClient(app) as cy, TestClient(app) as dee:
        clients = [ann, bob, cy, dee]
        ann.post("/api/me", json={"name": "Ann"})  # a name of her own: a default one is numbered by the new seats
        old_id = table_played_out(clients, roll_off=roll_off)
        old = record(app, old_id)
        at = [(old["first"] + k) % 4 for k in range(4)]  # at[k]: the old seat k places after the first
        asker, *others = [clients[at[k]] for k in accepting]
        table = asker.post(f"/api/games/{old_id}/rematch").json()["id"]
        for other in others:
            assert other.post(f"/api/games/{old_id}/rematch").status_code == 409  # accepted: a seat taken
        assert len(ann.get(f"/api/tables/{table}").json()["seats"]) == 3
        new_id = asker.post(f"/api/tables/{table}/start").json()["game"]
        new = record(app, new_id)
        back = sorted(at[k] for k in accepting)
        assert new["players"] == [old["players"][seat] for seat in back]  # the old order, the decliner's freed
        starter = next(at[k] for k in range(1, 5) if k % 4 != declines)
        assert new["players"][new["first"]] == old["players"][starter]
        assert old["players"][at[declines]] not in new["players"]
        view = asker.get(f"/api/games/{new_id}").json()
        assert view["to_act"] == new["first"] and view["roll_off"] is None  # no roll-off: the first seat passes
        assert clients[at[declines]].get(f"/api/games/{new_id}").json()["you"] == []
