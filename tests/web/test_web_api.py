"""The web service through its HTTP API: FastAPI's test client against a real database, each test twice:
a SQLite file in tmp_path, then a PostgreSQL database of its own (``database_url`` in tests/db_support.py).

Each browser is a client with its own cookie jar (its own device). Figures shown to players are checked
against independent computations: set-aside points against the brute force of ``tests/reference.py``,
farkle risks against an enumeration of every ordered roll, the dice of seeded games against the HMAC
stream computed here from the key, the daily's par against the computer playing those dice directly.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import itertools
import json
import math
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from hotdice.analysis import coach
from hotdice.analysis.coach import advise
from hotdice.analysis.solver import background, solved
from hotdice.game.dice import SeededDice
from hotdice.game.engine import ROLL, Game
from hotdice.game.record import Record, replay
from hotdice.game.rules import Rules
from hotdice.game.verify import verify_text
from hotdice.i18n import LANGUAGES, catalog
from hotdice.play.daily import daily_seed
from hotdice.play.hint import Hint
from hotdice.play.modes import ten_turn_rules
from hotdice.play.players import make_player, play_game
from hotdice.store import GameResult
from hotdice.store.web_models import WebChallenge, WebGame, WebPlayer
from hotdice.web import Settings, create_app
from hotdice.web.errors import KeyRevealed
from hotdice.web.services import challenges as challenge_service
from hotdice.web.services import daily as daily_service
from hotdice.web.services import games as game_service
from hotdice.web.services import records as record_service
from hotdice.web.services.daily import PAR_LEVEL
from hotdice.web.services.games import ActRequest, WebView, computer_spec
from hotdice.web.services.players import device_player
from tests.analysis.test_background import fresh_rules
from tests.reference import legal_set_asides
from tests.web_support import french_of, next_intent, worded

CATALOGS = {lang: catalog(lang) for lang in LANGUAGES}

KEY = b"the test server's daily key"
WEB = Path(__file__).resolve().parents[2] / "src" / "hotdice" / "web"


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    """The app on a database of its own, SQLite then PostgreSQL (``database_url``)."""
    # Without rate limits: the property tests here ask far faster than a person (tests/web/test_web_limits.py).
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=KEY).unlimited())
    yield web
    web.state.clock.shift = timedelta(0)  # the clock a test moved
    web.state.db.close()  # before the PostgreSQL database is dropped


@pytest.fixture
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:  # runs the app's lifespan: the live-update hub's event loop
        yield client


@pytest.fixture
def bob(app: FastAPI) -> TestClient:
    return TestClient(app)


def device(app: FastAPI) -> TestClient:
    return TestClient(app)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    view = client.get(f"/api/games/{made.json()['id']}").json()
    assert isinstance(view, dict)
    return view


def act(client: TestClient, view: dict[str, Any], intent: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post(f"/api/games/{view['id']}/act", json={"n": view["n"], **intent})
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert isinstance(body, dict)
    return body


def play_out(client: TestClient, view: dict[str, Any], limit: int = 2000) -> dict[str, Any]:
    """Play to the end: the test strategy for the device's seats, the computer's steps for its seat."""
    for _ in range(limit):
        if view["outcome"] is not None:
            return view
        seat = view["to_act"]
        if view["seats"][seat]["computer"]:
            answer = client.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]})
            assert answer.status_code == 200, answer.text
            view = answer.json()["game"]
        else:
            view = act(client, view, next_intent(view))["game"]
    raise AssertionError("the game did not end")


def history(app: FastAPI, game_id: str) -> list[str]:
    with app.state.db.session() as session:
        row = session.get(WebGame, game_id)
        assert row is not None
        return list(json.loads(row.record)["history"])


# -- pages, cookies, errors -----------------------------------------------------------------------------


def test_every_page_answers_and_a_device_gets_an_http_only_cookie(alice: TestClient) -> None:
    home = alice.get("/")
    assert home.status_code == 200
    cookie = home.headers["set-cookie"]
    assert "hotdice_device=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "hotdice_device=" not in alice.get("/rules").headers.get("set-cookie", "")  # kept, not replaced
    for path in ("/daily", "/rules", "/stats", "/training", "/static/hotdice.css", "/static/table.js"):
        assert alice.get(path).status_code == 200, path


def test_unknown_things_are_4xx_with_a_reason(alice: TestClient) -> None:
    page = alice.get("/play/nosuchgameatall0")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "no game &#39;nosuchgameatall0&#39;" in page.text
    assert alice.get("/play/nope").status_code == 404
    unknown = alice.get("/api/games/nosuchgameatall0").json()
    assert unknown == {"detail": "no game 'nosuchgameatall0' here: check the link", "code": "not-found",
                       "message": {"key": "error.no_game", "values": {"id": "nosuchgameatall0"}}}  # for a page to word
    malformed = alice.get("/api/games/nope")
    assert malformed.status_code == 422 and "game_id: String should match pattern" in malformed.json()["detail"]
    assert alice.get("/no/such/page").status_code == 404
    assert alice.get("/c/ABCDE-FGHJK").status_code == 400  # a typo in a challenge code is caught
    assert alice.get("/t/!!").status_code == 400
    alice.cookies.set("hotdice_lang", "fr")  # the same refusals in French, worded from what they carry
    french = {"/play/nosuchgameatall0": "aucune partie «\u00a0nosuchgameatall0\u00a0» ici\u00a0: vérifiez le lien",
              "/no/such/page": "rien ici\u00a0: vérifiez l’adresse",
              "/c/" + "X" * 60: "rien ici\u00a0: vérifiez l’adresse",  # an address no challenge can have
              "/t/ZZZZZZ": "aucune table ZZZZZZ ici\u00a0: vérifiez le code"}
    for address, reason in french.items():
        assert reason in html.unescape(alice.get(address).text), address
    typo = html.unescape(alice.get("/c/ABCDE-FGHJK").text)
    assert "le code «\u00a0ABCDE-FGHJK\u00a0» contient une faute de frappe" in typo, typo


def test_every_web_refusal_carries_its_message_and_keeps_its_english(alice: TestClient, bob: TestClient,
                                                                     app: FastAPI) -> None:
    """Each refusal of the web (its English ``detail`` exactly as it was: scripts read it) carries its catalogue
    key and values, which French words without English."""
    refused: dict[str, str] = {}

    def refuse(answer: Any, status: int, english: str) -> None:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert body["detail"] == english
        refused[body["message"]["key"]] = french_of(body)

    alice.post("/api/me", json={"name": "Ann", "rules": "farkle"})
    refuse(alice.post("/api/games", json={"mode": "versus", "level": "godlike"}), 400,
           "unknown level 'godlike': easy, medium or hard")
    refuse(alice.post("/api/games", json={"mode": "versus", "level": "easy", "wait": True}), 400,
           "only Hard waits for its exact play: wait goes with level hard")
    refuse(alice.post("/api/games", json={"mode": "chess"}), 400,
           "unknown mode 'chess': solo, race, versus, together, pad")
    view = new_game(alice, mode="versus", level="easy")
    n, url = view["n"], f"/api/games/{view['id']}"
    refuse(alice.post(f"{url}/act", json={"n": n}), 400, "say what to do: dice to set aside, and/or roll or bank")
    refuse(alice.post(f"{url}/act", json={"n": n, "then": "bank", "dice": "123456"}), 400,
           "dice are typed in only with a roll (the score pad)")
    refuse(alice.post(f"{url}/act", json={"n": n, "then": "roll", "dice": "123456"}), 400,
           "the server rolls the dice in this game: send no dice")
    refuse(alice.post(f"{url}/act", json={"n": n + 5, "then": "roll"}), 409,
           f"this game is at action {n}, not {n + 5}: nothing changed")
    refuse(alice.post(f"{url}/computer", json={"n": n + 5}), 409, f"this game is at action {n}, not {n + 5}")
    refuse(alice.post(f"{url}/computer", json={"n": n}), 409, "it is Ann's turn, not the computer's")
    refuse(bob.post(f"{url}/computer", json={"n": n}), 403, "only a player of this game can let the computer play")
    refuse(bob.post(f"{url}/act", json={"n": n, "then": "roll"}), 403,
           "you are watching this game: only its players can play")
    refuse(alice.get(f"{url}/record"), 409, "a game's record is given once the game is over")
    while view["to_act"] == 0:
        view = act(alice, view, next_intent(view))["game"]
    refuse(alice.post(f"{url}/act", json={"n": view["n"], "then": "roll"}), 409,
           "it is Computer (Easy)'s turn: the computer plays it")
    pad = new_game(alice, mode="pad", names=["Ann", "Bob"])
    refuse(alice.post(f"/api/games/{pad['id']}/act", json={"n": pad["n"], "then": "roll"}), 400,
           "the score pad rolls no dice: type in the table's roll")
    solo = play_out(alice, new_game(alice, mode="solo"))
    refuse(alice.post(f"/api/games/{solo['id']}/act", json={"n": solo["n"], "then": "roll"}), 409, "the game is over")
    code = alice.post("/api/tables", json={}).json()["code"]
    bob.post(f"/api/tables/{code}/join", json={"name": "Bob"})
    table = alice.get(f"/api/games/{alice.post(f'/api/tables/{code}/start').json()['game']}").json()
    waiting = (alice, bob)[1 - table["to_act"]]
    refuse(waiting.post(f"/api/games/{table['id']}/act", json={"n": table["n"], "then": "roll"}), 403,
           f"it is {table['players'][table['to_act']]['name']}'s turn, on their own device")
    refuse(alice.get(f"/api/games/{table['id']}/hint"), 403, "no hints in this mode: everyone plays on their own here")
    refuse(alice.post("/api/challenges", json={"preset": "nope"}), 400,
           "unknown preset 'nope'; presets are: farkle, 5000, 5000-fr, 5000-fr-6")
    challenge = alice.post("/api/challenges", json={}).json()["code"]
    refuse(bob.post(f"/api/challenges/{challenge}/close"), 403, "only the player who created a challenge can close it")
    refuse(alice.get("/api/training/drill", params={"rules": "farkle,min_bank=1000"}), 400,
           "bank-or-roll drills need min_bank of at most 500, not 1000")
    refuse(alice.get("/api/daily/someday/key"), 400, "'someday' is not a day: write it YYYY-MM-DD, e.g. 2026-11-30")
    refuse(alice.get("/api/daily/2999-01-01/key"), 409,
           "the daily game of 2999-01-01 has not opened yet: its commitment is shown from 00:00 UTC that day")
    assert "no offline page in &#39;xx&#39;: en, fr" in alice.get("/offline/xx").text
    alice.cookies.set("hotdice_lang", "fr")
    offline = html.unescape(alice.get("/offline/xx").text)
    assert "pas de page hors ligne en 'xx'\u00a0: en, fr" in offline, offline
    assert len(refused) == 22, sorted(refused)


MALFORMED_IDS = ["a\x00b", "nosuchgameatal\x00l", "\x00" * 16, "x" * 33, "é" * 16, "a b", "..", "%", "\U0001f3b2" * 4,
                 "'; drop table web_games; --", "\ud7ff\x01\x1f"]
PAGES_WITH_IDS = ["/play/{}", "/c/{}", "/c/{}/results", "/t/{}"]


def test_a_malformed_id_or_code_is_a_4xx_on_every_route_and_websocket(app: FastAPI, alice: TestClient) -> None:
    """A NUL byte reached PostgreSQL, which refuses it: 500 on six routes, a WebSocket closed without a code."""
    paths = [(method.upper(), path) for path, operations in app.openapi()["paths"].items() if "{" in path
             for method in operations]
    assert len(paths) == 19  # every route of the API that takes an id, a code or a day (… share, rematch, devices)
    paths += [("GET", page) for page in PAGES_WITH_IDS]
    for bad in MALFORMED_IDS:
        segment = quote(bad, safe="").replace(".", "%2E")  # as sent: not a step up the path
        for method, path in paths:
            address = re.sub(r"\{[a-z_]+\}", segment, path.replace("{}", segment))
            answer = alice.request(method, address, json={"n": 0} if method == "POST" else None)
            assert answer.status_code in (400, 404, 422), f"{method} {address}: {answer.status_code} {answer.text}"
            assert (answer.json()["detail"] if path.startswith("/api/") else "<html" in answer.text)
        for kind in ("games", "tables"):
            with pytest.raises(WebSocketDisconnect) as closed, alice.websocket_connect(f"/ws/{kind}/{segment}") as ws:
                ws.receive_json()
            assert closed.value.code == 4404, (kind, bad)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"mode": "chess"}, "unknown mode 'chess'"),
        ({"mode": "together", "names": ["Ann"]}, "2 to 8 players"),
        ({"mode": "together", "names": ["Ann", "Ann"]}, "same name"),
        ({"mode": "solo", "names": ["   "]}, "player 1 needs a name"),
        ({"mode": "together", "names": ["Ann", "x" * 25]}, f"player 2's name '{'x' * 25}' is longer than 24"),
        ({"mode": "together", "names": ["Ann", "Bob", "C\x07"]}, "player 3's name 'C\N{REPLACEMENT CHARACTER}' holds"),
        ({"mode": "solo", "rules": "farkle,entry=-5"}, "bad rules"),
        ({"mode": "versus", "level": "godlike"}, "unknown level"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused_with_why(alice: TestClient, body: dict[str, Any], reason: str) -> None:
    answer = alice.post("/api/games", json=body)
    assert answer.status_code == 400
    assert reason in answer.json()["detail"]


FAMILY = "\N{WOMAN}\N{ZERO WIDTH JOINER}\N{WOMAN}\N{ZERO WIDTH JOINER}\N{GIRL}"  # one character, 5 code points


def test_names_are_counted_in_the_characters_seen_and_a_refusal_says_whose(alice: TestClient) -> None:
    """24 family emoji are 120 code points and 24 characters: kept; a refusal carries its code and values for
    the page to word, the seat among them."""
    saved = alice.post("/api/me", json={"name": FAMILY * 24})
    assert saved.status_code == 200 and saved.json()["name"] == FAMILY * 24
    made = alice.post("/api/games", json={"mode": "together", "names": ["Zo\N{ZERO WIDTH JOINER}e", FAMILY * 3]})
    assert made.status_code == 201, made.text
    game = alice.get(f"/api/games/{made.json()['id']}").json()
    assert [p["name"] for p in game["players"]] == ["Zo\N{ZERO WIDTH JOINER}e", FAMILY * 3]
    refused = alice.post("/api/games", json={"mode": "together", "names": ["Ann", FAMILY * 25]})
    assert refused.status_code == 400
    assert refused.json()["refusal"] == {"code": "name-too-long", "values": {"seat": 2, "name": FAMILY * 25, "max": 24},
                                         "bank": False}
    assert alice.post("/api/me", json={"name": "Ann\x1b[31m"}).json()["refusal"]["code"] == "name-control"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b'{"mode": "solo", "extra": 1}',
        b'{"names": ["a"]}',
        b'{"mode": "solo", "names": ["a","b","c","d","e","f","g","h","i"]}',
        b'{"mode": 5}',
        b'{"mode": "solo", "names": ["' + b"x" * 201 + b'"]}',  # the schema's bound is what storage keeps
    ],
)
def test_malformed_bodies_are_422_with_a_readable_reason(alice: TestClient, body: bytes) -> None:
    answer = alice.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and detail


# -- playing: intents, action numbers, the server's dice ---------------------------------------------------


def test_a_whole_solo_game_is_played_recorded_and_shown_in_statistics(alice: TestClient, app: FastAPI) -> None:
    view = play_out(alice, new_game(alice, mode="solo"))
    assert view["outcome"]["termination"] == "turn-limit"
    assert view["players"][0]["turns"] == 10
    stats = alice.get("/api/stats").json()
    assert stats["games"] == 1 and stats["by_mode"] == [{"name": "solo", "played": 1, "won": None}]
    assert stats["scores"] == {"solo": [view["players"][0]["score"]]}
    page = alice.get("/stats")
    assert page.status_code == 200 and page.text.count('<svg class="chart"') == 2
    # Another device has statistics of its own: none.
    assert device(app).get("/api/stats").json() == {"games": 0}


def test_the_view_offers_exactly_the_legal_set_asides_with_their_points_and_exact_risks(alice: TestClient) -> None:
    rules = Rules.parse("farkle")
    view = new_game(alice, mode="race")
    for _ in range(40):
        if view["outcome"] is not None:
            break
        if view["phase"] == "set-aside":
            roll = tuple(view["roll"])
            expected = {"".join(map(str, dice)): points for dice, points in legal_set_asides(roll, rules).items()}
            assert {o["set_aside"]: o["points"] for o in view["options"]} == expected
            for o in view["options"]:
                n = rules.dice if o["dice_left"] == 0 else o["dice_left"]
                assert Fraction(o["risk"]["exact"]) == farkle_risk(n, rules)
        else:
            assert Fraction(view["risk"]["exact"]) == farkle_risk(view["dice_in_hand"], rules)
        view = act(alice, view, next_intent(view))["game"]


@functools.cache
def farkle_risk(n: int, rules: Rules) -> Fraction:
    """The share of the 6**n ordered rolls of n dice with no legal set-aside: each multiset of faces weighed
    by its number of orderings, scored by the brute force of tests/reference.py."""
    farkles = 0
    for roll in itertools.combinations_with_replacement(range(1, 7), n):
        if not legal_set_asides(roll, rules):
            orderings = math.factorial(n)
            for face in set(roll):
                orderings //= math.factorial(roll.count(face))
            farkles += orderings
    return Fraction(farkles, 6**n)


@pytest.mark.slow
def test_a_long_games_answers_stay_small_and_carry_its_events_as_they_happen(alice: TestClient) -> None:
    """Each answer carried the whole log: one action of a long game answered tens of kilobytes."""
    view = new_game(alice, mode="together", names=["Ann", "Bob"], rules="farkle,target=1000000")
    events: list[dict[str, Any]] = list(view["events"])
    sizes = []
    for _ in range(300):
        answer = alice.post(f"/api/games/{view['id']}/act", json={"n": view["n"], **next_intent(view)})
        assert answer.status_code == 200, answer.text
        sizes.append(len(answer.content))
        view = answer.json()["game"]
        assert view["events_from"] <= len(events)  # no gap: an action adds fewer events than a view carries
        events[view["events_from"] :] = view["events"]
    assert max(sizes[-50:]) <= 1.5 * max(sizes[:50]), sizes  # as big as a roll's refusals make it, no bigger
    whole = alice.get(f"/api/games/{view['id']}", params={"since": 0}).json()
    assert whole["events_from"] == 0 and whole["events"] == events  # appended as they came: the whole log
    assert alice.get(f"/api/games/{view['id']}", params={"since": len(events)}).json()["events"] == []
    assert alice.get(f"/api/games/{view['id']}", params={"since": -1}).status_code == 422


def test_each_event_carries_every_score_after_it(alice: TestClient) -> None:
    """The log needs no re-adding of banks and penalties: each event says the scores it left."""
    view = new_game(alice, mode="together", names=["Ann", "Bob"], rules="farkle,target=3000,three_farkles=500")
    view = play_out(alice, view)
    events = alice.get(f"/api/games/{view['id']}", params={"since": 0}).json()["events"]
    scores = [0, 0]
    for e in events:
        if e["kind"] == "bank":
            scores[e["seat"]] += e["points"]
        elif e["kind"] == "penalty":
            scores[e["seat"]] -= e["points"]
        assert e["scores"] == scores, e
    assert scores == [p["score"] for p in view["players"]]


def test_a_repeated_action_changes_nothing_and_says_so(alice: TestClient, app: FastAPI) -> None:
    view = new_game(alice, mode="solo")
    rolled = act(alice, view, {"then": "roll"})
    assert rolled["applied"] is True
    before = history(app, view["id"])
    again = act(alice, view, {"then": "roll"})  # the same intent, the same action number: a retry
    assert again["applied"] is False and again["message"] == "this action was already applied: nothing changed"
    assert (rolled["message"], french_of(rolled)) == ("done", "fait")
    assert french_of(again) == "cette action était déjà faite\u00a0: rien n’a changé"
    assert history(app, view["id"]) == before
    assert again["game"] == rolled["game"]


def test_a_stale_action_is_refused_with_the_game_as_it_is_now(alice: TestClient, app: FastAPI) -> None:
    view = new_game(alice, mode="solo")
    now = act(alice, view, {"then": "roll"})["game"]
    before = history(app, view["id"])
    stale = act(alice, view, {"then": "bank"}, status=409)  # sent from a screen that had not seen the roll
    assert stale["code"] == "stale" and "nothing changed" in stale["detail"]
    assert stale["game"] == now
    assert history(app, view["id"]) == before
    future = act(alice, {**now, "n": now["n"] + 5}, {"then": "roll"}, status=409)
    assert future["code"] == "stale"


def test_illegal_and_unreadable_intents_are_refused_with_the_rule(alice: TestClient) -> None:
    view = new_game(alice, mode="solo")
    refused = act(alice, view, {"then": "bank"}, status=409)
    assert refused["detail"] == "cannot bank: nothing to bank yet: roll first"
    assert refused["refusal"] == {"code": "roll-first", "values": {}, "bank": True}  # for a page to word
    unread = act(alice, view, {"keep": "7"}, status=400)
    assert unread["detail"] and unread["refusal"] == {"code": "not-a-die", "values": {"token": "7"}, "bank": False}
    assert act(alice, view, {}, status=400)["detail"].startswith("say what to do")
    assert "server rolls the dice" in act(alice, view, {"then": "roll", "dice": "123456"}, status=400)["detail"]
    view = act(alice, view, {"then": "roll"})["game"]
    while view["phase"] != "set-aside":  # a farkle on the first roll: next turn
        view = act(alice, view, {"then": "roll"})["game"]
    face = view["roll"][0]
    more_than_rolled = str(face) * (view["roll"].count(face) + 1)  # any roll, a straight included
    refused = act(alice, view, {"keep": more_than_rolled}, status=409)
    assert "is not in the roll" in refused["detail"]
    assert refused["refusal"] == {"code": "not-in-roll", "bank": False,
                                  "values": {"keep": [face] * len(more_than_rolled), "roll": view["roll"]}}


def test_reloading_resumes_the_game_exactly(alice: TestClient) -> None:
    view = new_game(alice, mode="race")
    for _ in range(7):
        view = act(alice, view, next_intent(view))["game"]
    assert alice.get(f"/api/games/{view['id']}").json() == view
    page = alice.get(f"/play/{view['id']}")
    embedded = re.search(r'<script id="view" type="application/json">(.*?)</script>', page.text, re.S)
    assert embedded is not None and json.loads(embedded.group(1)) == view


def test_only_the_device_that_plays_a_game_can_act_in_it(alice: TestClient, bob: TestClient) -> None:
    view = new_game(alice, mode="solo")
    assert bob.get(f"/api/games/{view['id']}").json()["you"] == []
    refused = act(bob, view, {"then": "roll"}, status=403)
    assert "watching" in refused["detail"]


def test_concurrent_submissions_of_one_action_change_the_game_once(app: FastAPI, alice: TestClient) -> None:
    view = new_game(alice, mode="solo")
    db = app.state.db
    token = app.state.devices.token(alice.cookies["hotdice_device"])
    results: list[str] = []

    def submit() -> None:
        with db.session() as session:
            player = device_player(session, token)
            try:
                acted = game_service.act(session, view["id"], player.id, ActRequest(view["n"], then="roll"))
                session.commit()
                results.append("applied" if acted.applied else "repeat")
            except Exception as exc:  # the loser: stale, or refused by the database lock
                session.rollback()
                results.append(type(exc).__name__)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count("applied") == 1, results
    lines = history(app, view["id"])
    assert lines.count("roll") == 1 and sum(line.startswith("dice ") for line in lines) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "n": st.one_of(st.integers(-5, 3), st.text(max_size=3), st.none()),
            "keep": st.one_of(st.text(max_size=8), st.integers(), st.none()),
            "then": st.one_of(st.sampled_from(["roll", "bank", "jump"]), st.none()),
            "dice": st.one_of(st.text(alphabet="0123456789 x", max_size=8), st.none()),
            "x": st.integers(),
        },
    )
)
def test_no_intent_body_gets_a_5xx(alice: TestClient, body: dict[str, Any]) -> None:
    view = new_game(alice, mode="pad", names=["Ann"])
    answer = alice.post(f"/api/games/{view['id']}/act", json=body)
    assert answer.status_code < 500, answer.text
    assert isinstance(answer.json()["detail" if answer.status_code >= 400 else "game"], str | dict)


# -- modes ---------------------------------------------------------------------------------------------------


def test_against_the_computer_it_plays_step_by_step_and_a_repeated_step_changes_nothing(alice: TestClient) -> None:
    view = new_game(alice, mode="versus", level="easy", rules="farkle,target=1500")
    assert view["seats"][1]["computer"] == "easy"
    assert alice.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]}).status_code == 409  # your turn
    while view["to_act"] == 0:
        view = act(alice, view, {"then": "bank"} if view["can_bank"] else next_intent(view))["game"]
    n = view["n"]
    stepped = alice.post(f"/api/games/{view['id']}/computer", json={"n": n}).json()
    assert stepped["applied"] and stepped["game"]["n"] > n
    again = alice.post(f"/api/games/{view['id']}/computer", json={"n": n}).json()
    assert again["applied"] is False and again["game"] == stepped["game"]
    final = play_out(alice, stepped["game"])
    stats = alice.get("/api/stats").json()
    won = int(0 in final["outcome"]["winners"])
    assert stats["by_opponent"] == [{"name": computer_spec("easy"), "played": 1, "won": won}]


def test_together_records_the_first_seat_once_and_the_roll_off_is_shown(alice: TestClient) -> None:
    view = new_game(alice, mode="together", names=["Ann", "Ben", "Cy"], roll_off=True, rules="farkle,target=1000")
    assert view["you"] == [0, 1, 2]
    rounds = view["roll_off"]
    last = rounds[-1]
    top = max(die for _, die in last)
    assert [p for p, die in last if die == top] == [view["current"]]  # the roll-off's winner starts
    final = play_out(alice, view)
    won = int(0 in final["outcome"]["winners"])
    assert alice.get("/api/stats").json()["by_mode"] == [{"name": "together", "played": 1, "won": won}]


@pytest.mark.slow
def test_the_solved_measures_stay_within_what_the_server_can_solve(alice: TestClient) -> None:
    for rules, bound in (("farkle,target=20000", "up to a target of 10000; target=20000"),
                         ("farkle,three_farkles=1000,target=12000", "up to a target of 10000; target=12000")):
        refused = alice.post("/api/games", json={"mode": "versus", "level": "hard", "rules": rules})
        detail = refused.json()["detail"]
        assert refused.status_code == 400 and bound in detail and "would take too long" in detail, detail
    view = new_game(alice, mode="together", names=["Ann", "Ben"], rules="farkle,target=20000")
    hint = alice.get(f"/api/games/{view['id']}/hint").json()
    assert hint["measure"] == "points" and [c["then"] for c in hint["choices"]] == ["roll"]


def test_a_hint_never_waits_for_a_solve(alice: TestClient) -> None:
    # A table this process has not solved (the solver's cache folder is the process's own: tests/conftest.py).
    unsolved = [f"farkle,target={1000 + 50 * k},min_bank=250" for k in range(1, 20)]
    rules = random.choice([r for r in unsolved if not solved(Rules.parse(r))])
    view = act(alice, new_game(alice, mode="versus", level="medium", rules=rules), {"then": "roll"})["game"]
    first = alice.get(f"/api/games/{view['id']}/hint").json()
    assert first["measure"] == "points"  # answered at once, in expected points, while the table is solved
    deadline = time.monotonic() + 120
    while (hint := alice.get(f"/api/games/{view['id']}/hint").json())["measure"] != "win":
        assert time.monotonic() < deadline, "the background solve never finished"
        time.sleep(0.2)
    assert hint["choices"] and all(0 <= c["value"] <= 1 for c in hint["choices"])


@pytest.fixture
def own_solver(monkeypatch: pytest.MonkeyPatch) -> background.Solver:
    """A background solver of the test's own: no other test's solves are queued before its own."""
    own = background.Solver()
    monkeypatch.setattr(game_service, "SOLVER", own)
    monkeypatch.setattr(coach, "SOLVER", own)
    return own


@pytest.fixture
def held_solves(own_solver: background.Solver, monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The test's solver holds every solve it starts until the event is set (at the latest when the test
    ends): what a request answers while a solve runs, however fast the machine."""
    hold = threading.Event()
    for name in ("two_player_solution", "race_solution"):
        real = getattr(background, name)

        def held(rules: Rules, real: Any = real) -> Any:
            hold.wait(60)
            return real(rules)

        monkeypatch.setattr(background, name, held)
    yield hold
    hold.set()


def exact_hint(client: TestClient, view: dict[str, Any], measure: str) -> dict[str, Any]:
    """The hint once its table is solved in the background (expected points until then)."""
    deadline = time.monotonic() + 120
    while (hint := client.get(f"/api/games/{view['id']}/hint").json())["measure"] != measure:
        assert hint["measure"] == "points" and time.monotonic() < deadline, hint
        time.sleep(0.1)
    return dict(hint)


def game_of(app: FastAPI, game_id: str) -> Game:
    with app.state.db.session() as session:
        row = session.get(WebGame, game_id)
        assert row is not None
        return replay(Record.from_json(row.record))


def wait_ready(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while (view := client.get(f"/api/games/{view['id']}").json())["solver"]["state"] != "ready":
        assert time.monotonic() < deadline, f"the background solve never finished: {view['solver']}"
        time.sleep(0.1)
    return view


@pytest.mark.slow
def test_hard_plays_at_once_in_expected_points_while_its_table_is_solved(
        app: FastAPI, alice: TestClient, held_solves: threading.Event) -> None:
    rules = fresh_rules("farkle,target=3000")  # far enough for three computer steps to leave the game going on
    view = new_game(alice, mode="versus", level="hard", rules=str(rules))  # accepted: solved in the background
    assert view["solver"]["state"] in ("queued", "solving")
    steps = 0
    while steps < 3:  # over turns: a computer's first roll may be a farkle
        assert view["outcome"] is None
        if view["to_act"] == 0:
            view = act(alice, view, {"then": "bank"} if view["can_bank"] else next_intent(view))["game"]
            continue
        before = game_of(app, view["id"])
        stepped = alice.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]}).json()
        view = stepped["game"]
        assert stepped["applied"] and view["solver"]["state"] in ("queued", "solving")  # the label
        step = game_of(app, view["id"]).history[len(before.history)]
        expected = advise(before, "points").best.action  # the move of most expected points
        if expected == ROLL:
            assert step.move is ROLL, step
        else:
            before.apply(expected)
            assert before.history[-1] == step
        steps += 1
    held_solves.set()
    assert wait_ready(alice, view)["solver"] == {"state": "ready", "progress": 1.0, "reason": None}


@pytest.mark.slow
def test_hard_waits_for_its_exact_play_when_the_player_chose_it(
        app: FastAPI, alice: TestClient, held_solves: threading.Event) -> None:
    rules = fresh_rules("farkle,target=3000")
    assert "only Hard waits" in alice.post("/api/games", json={"mode": "versus", "level": "medium", "wait": True,
                                                                "rules": str(rules)}).json()["detail"]
    view = new_game(alice, mode="versus", level="hard", wait=True, rules=str(rules))
    assert [s["wait"] for s in view["seats"]] == [False, True]
    while view["to_act"] == 0:  # the player's own turn goes on while the solve is pending
        view = act(alice, view, {"then": "bank"} if view["can_bank"] else next_intent(view))["game"]
    assert view["outcome"] is None
    for _ in range(2):  # asked again and again: still no move, only how far the table is
        answer = alice.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]})
        assert answer.status_code == 200
        waited = answer.json()
        assert not waited["applied"] and waited["waiting"]["state"] in ("queued", "solving")
        assert re.fullmatch(r"waiting for Hard's table: \d+ %", waited["message"]), waited["message"]
        assert re.fullmatch(r"en attente de la table de Difficile\u00a0: \d+\u00a0%", french_of(waited))
        assert waited["game"]["n"] == view["n"] and waited["game"]["solver"]["state"] in ("queued", "solving")
    assert len(game_of(app, view["id"]).history) == view["n"]
    held_solves.set()
    view = wait_ready(alice, view)
    steps = 0
    while view["to_act"] == 1 and view["outcome"] is None:  # now every move is the exact one
        before = game_of(app, view["id"])
        stepped = alice.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]}).json()
        assert stepped["applied"] and "waiting" not in stepped
        view = stepped["game"]
        line = str(game_of(app, view["id"]).history[len(before.history)])
        exact = advise(before)
        assert exact.measure == "win"
        if exact.best.action == ROLL:
            assert line.startswith("roll"), line
        else:
            before.apply(exact.best.action)
            assert str(before.history[-1]) == line
        steps += 1
    assert steps >= 1


def test_a_race_hint_never_waits_for_its_table(alice: TestClient, held_solves: threading.Event) -> None:
    view = act(alice, new_game(alice, mode="race", rules=str(fresh_rules("farkle,target=1000"))), {"then": "roll"})[
        "game"]
    first = alice.get(f"/api/games/{view['id']}/hint").json()
    assert first["measure"] == "points" and first["solver"]["state"] in ("queued", "solving")
    assert orjson.loads(orjson.dumps(TypeAdapter(Hint).validate_python(first))) == first  # the solver's state too
    assert view["solver"] is None  # the table's line is Hard's; a hint tells its own
    held_solves.set()
    assert exact_hint(alice, view, "turns")["solver"]["state"] == "ready"


def test_the_score_pad_takes_the_tables_dice(alice: TestClient) -> None:
    view = new_game(alice, mode="pad", names=["Ann", "Ben"])
    assert "type in the table's roll" in act(alice, view, {"then": "roll"}, status=400)["detail"]
    assert "dice" in act(alice, view, {"then": "roll", "dice": "12345"}, status=400)["detail"]  # six are rolled
    view = act(alice, view, {"then": "roll", "dice": "115234"})["game"]
    best = view["options"][0]
    assert view["roll"] == [1, 1, 5, 2, 3, 4] and (best["set_aside"], best["points"]) == ("115", 250)  # 100 + 100 + 50
    view = act(alice, view, {"keep": "11", "then": "roll", "dice": "6622"})["game"]
    assert view["current"] == 1 and view["players"][0]["score"] == 0  # 6 6 2 2: a farkle


def test_hints_where_the_mode_allows_them(alice: TestClient, own_solver: background.Solver) -> None:
    view = act(alice, new_game(alice, mode="race"), {"then": "roll"})["game"]
    hint = exact_hint(alice, view, "turns")  # once the race table is solved in the background
    assert hint["choices"] and hint["n"] == view["n"]
    assert all(c["cost"] >= 0 for c in hint["choices"]) and hint["choices"][0]["cost"] == 0
    daily = alice.post("/api/daily").json()
    assert alice.get(f"/api/games/{daily['id']}/hint").status_code == 403


def test_the_hint_answers_its_declared_schema_with_one_choice_per_legal_decision(alice: TestClient) -> None:
    """The hint's schema (OpenAPI) is the contract with table.js: every answer reads back as the declared Hint,
    field for field. Its choices are the roll's legal set-asides (the brute force of tests/reference.py), each
    then rolling or banking where the view allows a bank, or (no roll on the table) roll and the bank the view
    allows; best first, each costing what it falls short of the best; a bank is worth the turn total."""
    paths = alice.get("/api/openapi.json").json()["paths"]
    shown = paths["/api/games/{game_id}/hint"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert shown["$ref"].endswith("/Hint")
    adapter = TypeAdapter(Hint)
    view = new_game(alice, mode="solo")
    rules, phases = Rules.parse(view["rules"]), set()
    for _ in range(60):
        if view["outcome"] is not None:
            break
        answer = alice.get(f"/api/games/{view['id']}/hint").json()
        typed = adapter.validate_python(answer)
        assert orjson.loads(orjson.dumps(typed)) == answer
        assert (typed.n, typed.measure, typed.solver) == (view["n"], "points", None)  # ten turns: no table
        best = typed.choices[0].value
        assert [c.cost for c in typed.choices] == [best - c.value for c in typed.choices]
        assert all(c.cost >= 0 for c in typed.choices)
        if view["phase"] == "set-aside":
            legal = {"".join(map(str, dice)) for dice in legal_set_asides(tuple(view["roll"]), rules)}
            assert sorted(str(c.set_aside) for c in typed.choices) == sorted(legal)
            may_bank = {o["set_aside"] for o in view["options"] if o["bank_refusal"] is None}
            assert all(c.set_aside in may_bank for c in typed.choices if c.then == "bank")
        else:
            assert all(c.set_aside is None for c in typed.choices)
            assert sorted(c.then for c in typed.choices) == (["bank", "roll"] if view["can_bank"] else ["roll"])
            banked = [c.value for c in typed.choices if c.then == "bank"]
            assert banked in ([], [view["turn_total"]])
        phases.add(view["phase"])
        view = act(alice, view, next_intent(view))["game"]
    assert phases == {"set-aside", "decide"}


def test_the_house_rules_of_the_settings_page_are_used_for_new_games(alice: TestClient) -> None:
    checked = alice.get("/api/rules", params={"text": "5000, entry=500"}).json()
    assert checked["rules"] == "5000,entry=500" and checked["dice"] == 5 and checked["scoring"]
    bad = alice.get("/api/rules", params={"text": "5000,entry=-1"}).json()
    assert "bad rules" in bad["detail"]
    assert bad["refusal"] == {"code": "negative-points", "values": {"knob": "entry", "value": -1}, "bank": False}
    assert alice.post("/api/me", json={"rules": "5000,entry=500", "name": "Ann"}).json() == {
        "name": "Ann", "rules": "5000,entry=500"}
    view = new_game(alice, mode="race")
    assert view["rules"] == "5000,entry=500" and view["dice"] == 5 and view["players"][0]["name"] == "Ann"
    assert "Ann" in alice.get("/").text and "5000,entry=500" in alice.get("/rules").text


# -- daily ---------------------------------------------------------------------------------------------------


def test_daily_first_attempt_official_then_unofficial_leaderboard_and_par(alice: TestClient, bob: TestClient,
                                                                         app: FastAPI) -> None:
    day = datetime.now(UTC).date()
    first = alice.post("/api/daily").json()
    assert first["official"] is True
    assert alice.post("/api/daily").json()["id"] == first["id"]  # unfinished: resumed, not a new attempt
    assert alice.get("/api/daily").json()["par"] is None  # not before finishing
    view = play_out(alice, alice.get(f"/api/games/{first['id']}").json())
    # The dice were the day's stream: every roll of the record is the HMAC stream of the day's key.
    assert list(map(str, replay(Record.from_json(_record_json(app, first["id"]))).history)) == history(app, first["id"])
    assert _rolls(app, first["id"]) == _stream(daily_seed(day, KEY), history(app, first["id"]))
    second = alice.post("/api/daily").json()
    assert second["official"] is False
    play_out(alice, alice.get(f"/api/games/{second['id']}").json())
    bob.post("/api/me", json={"name": "Bob"})
    bob_game = bob.post("/api/daily").json()
    assert bob_game["official"] is True
    bob_view = play_out(bob, bob.get(f"/api/games/{bob_game['id']}").json())
    page = alice.get("/api/daily").json()
    assert [a["official"] for a in page["attempts"]] == [True, False]
    board = page["leaderboard"]
    assert sorted((r["name"], r["score"]) for r in board) == sorted(
        [("Player", view["players"][0]["score"]), ("Bob", bob_view["players"][0]["score"])])
    assert [r["you"] for r in board if r["name"] == "Player"] == [True]
    # Par: the computer on the same dice, played here directly.
    fresh = Game(ten_turn_rules(Rules.parse("farkle")), ("Computer",), turn_limit=10)
    computer = make_player(computer_spec(PAR_LEVEL), random.Random(day.isoformat()))
    play_game(fresh, [computer], SeededDice(daily_seed(day, KEY)))
    assert page["par"] == fresh.scores[0]
    stats = alice.get("/api/stats").json()
    assert [d["official"] for d in stats["dailies"]] == [True, False]


def _record_json(app: FastAPI, game_id: str) -> str:
    with app.state.db.session() as session:
        row = session.get(WebGame, game_id)
        assert row is not None
        return row.record


def _rolls(app: FastAPI, game_id: str) -> list[str]:
    return [line for line in history(app, game_id) if line.startswith("dice ")]


def _stream(seed: bytes, lines: list[str]) -> list[str]:
    """The rolls the day's HMAC stream gives, in the turns and rolls where the history asks for them."""
    game = Game(ten_turn_rules(Rules.parse("farkle")), ("x",), turn_limit=10)
    dice = SeededDice(seed)
    out = []
    for line in lines:
        if line.startswith("dice "):
            expected = dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn)
            out.append("dice " + "".join(map(str, expected)))
            game.apply_roll(expected)
        else:
            game.apply(line)
    return out


def test_no_answer_reveals_the_seed_or_a_roll_not_yet_rolled(alice: TestClient, app: FastAPI) -> None:
    started = alice.post("/api/daily").json()
    seed_hex = daily_seed(datetime.now(UTC).date(), KEY).hex()
    answers = [alice.get(f"/api/games/{started['id']}").text, alice.get(f"/play/{started['id']}").text]
    view = alice.get(f"/api/games/{started['id']}").json()
    for _ in range(12):
        if view["outcome"] is not None:
            break
        body = act(alice, view, next_intent(view))
        answers.append(json.dumps(body))
        view = body["game"]
        events = alice.get(f"/api/games/{started['id']}", params={"since": 0}).json()["events"]
        rolled = [e["dice"] for e in events if e["kind"] == "roll"]
        assert ["dice " + "".join(map(str, d)) for d in rolled] == _rolls(app, started["id"])  # only past rolls
    assert alice.get(f"/api/games/{started['id']}/record").status_code == 409  # not before the end
    assert all(seed_hex not in text and KEY.decode() not in text for text in answers)
    view = play_out(alice, view)
    record = alice.get(f"/api/games/{started['id']}/record").json()
    assert record["seed"] is None  # the day is not over: others have yet to play these dice
    assert Record.from_json(record).history == tuple(history(app, started["id"]))


# -- challenges ----------------------------------------------------------------------------------------------


def test_a_friend_challenge_same_dice_results_and_the_key_revealed_on_closing(alice: TestClient, bob: TestClient,
                                                                             app: FastAPI) -> None:
    made = alice.post("/api/challenges", json={"preset": "5000"}).json()
    code = made["code"]
    assert re.fullmatch(r"[0-9A-Z]{5}-[0-9A-Z]{5}", code) and made["url"] == f"/c/{code}"
    assert alice.get(f"/c/{code.lower().replace('-', '')}", follow_redirects=False).status_code == 307
    games = {}
    for client, name in ((alice, "Ann"), (bob, "Bob")):
        client.post("/api/me", json={"name": name})
        started = client.post(f"/api/challenges/{code}/play").json()
        assert client.post(f"/api/challenges/{code}/play").json()["id"] == started["id"]  # one attempt each
        first = act(client, client.get(f"/api/games/{started['id']}").json(), {"then": "roll"})["game"]
        games[name] = (started["id"], first["roll"])
    assert games["Ann"][1] == games["Bob"][1]  # the same dice for everyone
    assert alice.get(f"/api/challenges/{code}").json()["ranking"] == []
    for client, name in ((alice, "Ann"), (bob, "Bob")):
        play_out(client, client.get(f"/api/games/{games[name][0]}").json())
    results = alice.get(f"/api/challenges/{code}").json()
    scores = {name: client.get(f"/api/games/{games[name][0]}").json()["players"][0]["score"]
              for client, name in ((alice, "Ann"), (bob, "Bob"))}
    assert sorted((r["name"], r["score"]) for r in results["ranking"]) == sorted(scores.items())
    assert results["dice_key"] is None and results["closed"] is False
    assert bob.post(f"/api/challenges/{code}/close").status_code == 403  # only its creator closes it
    page = alice.get(f"/c/{code}/results")
    assert page.status_code == 200 and "Ann" in page.text and "Bob" in page.text
    with app.state.db.session() as session:
        key = session.get(WebChallenge, code).dice_key  # type: ignore[union-attr]
    assert all(key not in alice.get(p).text for p in (f"/c/{code}", f"/c/{code}/results", f"/api/challenges/{code}"))
    assert alice.get(f"/api/games/{games['Ann'][0]}/record").json()["seed"] is None
    closed = alice.post(f"/api/challenges/{code}/close").json()
    assert closed["closed"] is True and closed["dice_key"] == key
    record = Record.from_json(alice.get(f"/api/games/{games['Bob'][0]}/record").json())
    assert record.seed == key
    replay(record)  # every roll checked against the revealed key
    carol = device(app)
    assert "closed" in carol.post(f"/api/challenges/{code}/play").json()["detail"]


def test_a_challenge_closes_by_itself(alice: TestClient, app: FastAPI) -> None:
    code = alice.post("/api/challenges", json={}).json()["code"]
    with app.state.db.session() as session:
        found = session.get(WebChallenge, code)
        assert found is not None
        found.closes_at = datetime.now(UTC) - timedelta(seconds=1)
        session.commit()
    assert alice.post(f"/api/challenges/{code}/play").status_code == 409
    assert alice.get(f"/api/challenges/{code}").json()["dice_key"] is not None
    assert alice.post("/api/challenges", json={"preset": "poker"}).status_code == 400


# -- a revealed key ends play -------------------------------------------------------------------------------


def _never_banking(view: dict[str, Any]) -> dict[str, Any]:
    """Roll on until the farkle: ten turns of it score nothing."""
    if view["phase"] == "set-aside":
        return {"keep": view["options"][0]["set_aside"], "then": "roll"}
    return {"then": "roll"}


def test_a_challenge_closed_ends_the_attempts_still_playing_at_its_grace_deadline(
        alice: TestClient, bob: TestClient, app: FastAPI) -> None:
    # The attack of before: Ann makes a challenge, starts her attempt, closes it, then plays on once its key is
    # revealed, knowing every roll to come. Bob finished before, with nothing. Her attempt had until the grace
    # deadline; at it the key is revealed and her attempt ends there.
    alice.post("/api/me", json={"name": "Ann"})
    bob.post("/api/me", json={"name": "Bob"})
    code = alice.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
    bob_view = bob.get(f"/api/games/{bob.post(f'/api/challenges/{code}/play').json()['id']}").json()
    while bob_view["outcome"] is None:
        bob_view = act(bob, bob_view, _never_banking(bob_view))["game"]
    assert bob_view["players"][0]["score"] == 0
    view = alice.get(f"/api/games/{alice.post(f'/api/challenges/{code}/play').json()['id']}").json()
    while view["players"][0]["score"] == 0:
        view = act(alice, view, next_intent(view))["game"]
    assert view["outcome"] is None and view["ended"] is None
    closing = alice.post(f"/api/challenges/{code}/close").json()
    assert closing["dice_key"] is None  # her attempt is under way: the key waits for it, or the grace deadline
    app.state.clock.move_to(datetime.fromisoformat(closing["grace_until"]))
    closed = alice.get(f"/api/challenges/{code}").json()
    refused = act(alice, view, next_intent(view), status=409)
    assert refused["code"] == "key-revealed" and "revealed at" in refused["detail"]
    assert refused["game"]["ended"] is not None and refused["game"]["options"] == []
    assert not refused["game"]["can_roll"] and not refused["game"]["can_bank"]
    assert len(history(app, view["id"])) == view["n"]  # nothing was written
    shown = alice.get(f"/api/games/{view['id']}").json()
    assert shown["ended"] == refused["game"]["ended"] == shown["outcome"]["at"]
    assert shown["outcome"]["ended"] == "key-revealed" and shown["outcome"]["winners"] == []
    # Ann's points rank below Bob's finished nothing; nobody is still playing.
    results = alice.get(f"/api/challenges/{code}").json()
    assert [(r["name"], r["finished"]) for r in results["ranking"]] == [("Bob", True), ("Ann", False)]
    assert results["ranking"][1]["score"] > results["ranking"][0]["score"] and results["playing"] == []
    assert '<span class="badge">unfinished</span>' in alice.get(f"/c/{code}/results").text
    # Her record says when each line was played and when the key was revealed: all before it.
    record = Record.from_json(alice.get(f"/api/games/{view['id']}/record").json())
    assert record.seed == closed["dice_key"] and record.revealed_at is not None and record.played_at is not None
    assert len(record.played_at) == len(record.history) and max(record.played_at) <= record.revealed_at
    assert record.result.winners is None  # unfinished, and checked as such: every roll, every line before the reveal
    verdict = verify_text(json.dumps(record.to_json()))
    assert verdict.valid and f"unfinished: it ended when its dice key was revealed at {record.revealed_at}" in \
        verdict.lines[-2], verdict.lines


@pytest.mark.slow
def test_closing_a_challenge_waits_for_the_action_it_would_end(app: FastAPI, alice: TestClient) -> None:
    # An action checked before the close, committed after it, must be recorded before the key's reveal.
    code = alice.post("/api/challenges", json={}).json()["code"]
    view = alice.get(f"/api/games/{alice.post(f'/api/challenges/{code}/play').json()['id']}").json()
    db, token = app.state.db, app.state.devices.token(alice.cookies["hotdice_device"])
    closed = threading.Event()

    def close() -> None:
        with db.session() as session:
            challenge_service.close(session, device_player(session, token), code)
            session.commit()
            closed.set()

    with db.session() as session:
        player_id = device_player(session, token).id
        game_service.act(session, view["id"], player_id, ActRequest(view["n"], then="roll"))
        closing = threading.Thread(target=close)
        closing.start()
        assert not closed.wait(1)  # the challenge is held by the action: the close waits for it
        session.commit()
    closing.join(60)
    assert closed.is_set()
    grace_until = alice.get(f"/api/challenges/{code}").json()["grace_until"]
    app.state.clock.move_to(datetime.fromisoformat(grace_until))  # the attempt under way had until then
    with db.session() as session:
        record = record_service.public_record(session, view["id"])
    assert record.played_at is not None and record.revealed_at is not None
    assert len(record.played_at) == 2 and max(record.played_at) <= record.revealed_at
    assert act(alice, alice.get(f"/api/games/{view['id']}").json(), {"then": "roll"}, status=409)["code"] == \
        "key-revealed"


def test_the_daily_ends_at_midnight_for_an_attempt_started_before(app: FastAPI, alice: TestClient,
                                                                  bob: TestClient) -> None:
    day = datetime.now(UTC).date()
    midnight = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    bob.post("/api/me", json={"name": "Bob"})
    bob_view = bob.get(f"/api/games/{bob.post('/api/daily').json()['id']}").json()
    while bob_view["outcome"] is None:
        bob_view = act(bob, bob_view, _never_banking(bob_view))["game"]
    view = alice.get(f"/api/games/{alice.post('/api/daily').json()['id']}").json()
    while view["players"][0]["score"] == 0:
        view = act(alice, view, next_intent(view))["game"]
    db = app.state.db
    with db.session() as session:
        player = device_player(session, app.state.devices.token(alice.cookies["hotdice_device"]))
        # A second before midnight the attempt goes on; at midnight the day's key is revealed: it ends there.
        before = game_service.act(session, view["id"], player.id, ActRequest(view["n"], **next_intent(view)),
                                  now=midnight - timedelta(seconds=1))
        session.commit()
        view = game_service.view_json(before.view)
        with pytest.raises(KeyRevealed, match="revealed at") as refused:
            game_service.act(session, view["id"], player.id, ActRequest(view["n"], **next_intent(view)), now=midnight)
        session.rollback()
        assert refused.value.extra["game"]["ended"] == midnight.strftime("%Y-%m-%dT%H:%M:%SZ")
        assert refused.value.reason == (f"this game's dice key was revealed at {midnight:%Y-%m-%dT%H:%M:%SZ}: every "
                                        "roll is known now, so the game ended there, unfinished")
        assert french_of(refused.value.body())
        played_at = game_service.load(session, view["id"]).played_at
        assert played_at is not None and played_at[-1] == f"{day.isoformat()}T23:59:59Z"
        board = daily_service.leaderboard(session, day, now=midnight)
        assert [(r.result.name, r.result.finished) for r, _ in board] == [("Bob", True), ("Player", False)]
        assert daily_service.leaderboard(session, day, now=midnight - timedelta(seconds=1))[-1][0].result.name == "Bob"
        record = record_service.public_record(session, view["id"], now=midnight)
    assert record.seed == daily_seed(day, KEY).hex() and record.revealed_at == midnight.strftime("%Y-%m-%dT%H:%M:%SZ")


# -- online tables -------------------------------------------------------------------------------------------


def test_an_online_table_live_updates_spectators_and_rejoining(alice: TestClient, bob: TestClient,
                                                              app: FastAPI) -> None:
    alice.post("/api/me", json={"name": "Ann", "rules": "farkle,target=1000"})
    table = alice.post("/api/tables", json={}).json()
    code = table["code"]
    assert bob.post(f"/api/tables/{code}/start").status_code == 403  # only the host starts
    assert alice.post(f"/api/tables/{code}/start").status_code == 409  # alone at the table
    assert bob.post(f"/api/tables/{code}/join", json={"name": "ann"}).status_code == 409  # a name in use
    joined = bob.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
    assert [s["name"] for s in joined["seats"]] == ["Ann", "Bob"] and joined["seated"]
    assert bob.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json() == joined  # joining again: same seat
    with alice.websocket_connect(f"/ws/tables/{code}") as lobby:
        assert lobby.receive_json() == {"type": "table"}
        started = alice.post(f"/api/tables/{code}/start").json()
        assert lobby.receive_json() == {"type": "table"}
    game_id = started["game"]
    carol = device(app)
    assert carol.post(f"/api/tables/{code}/join", json={"name": "Cy"}).status_code == 409  # started: watch
    watching = carol.get(f"/t/{code}")
    assert watching.status_code == 200 and "Ann" in watching.text
    view = carol.get(f"/api/games/{game_id}").json()
    assert view["rules"] == "farkle,target=1000" and view["you"] == [] and view["mode"] == "online"
    assert alice.get(f"/api/games/{game_id}").json()["you"] == [0]
    assert bob.get(f"/api/games/{game_id}").json()["you"] == [1]
    players = {0: alice, 1: bob}
    waiting = players[1 - view["current"]]
    turn_of = view["players"][view["current"]]["name"]
    assert f"it is {turn_of}'s turn" in act(waiting, view, {"then": "roll"}, status=403)["detail"]
    assert "watching" in act(carol, view, {"then": "roll"}, status=403)["detail"]
    with carol.websocket_connect(f"/ws/games/{game_id}") as live:
        assert live.receive_json()["view"]["n"] == view["n"]
        for _ in range(6):
            if view["outcome"] is not None:
                break
            mover = players[view["to_act"]]
            view = act(mover, view, next_intent(view))["game"]
            pushed = live.receive_json()
            assert pushed["type"] == "game" and pushed["view"]["n"] == view["n"] and pushed["view"]["you"] == []
    # Bob "drops" (a new tab, the same device): his seat is still his, the game goes on.
    rejoined = TestClient(app, cookies={"hotdice_device": bob.cookies["hotdice_device"]})
    assert rejoined.get(f"/api/games/{game_id}").json()["you"] == [1]
    while view["outcome"] is None:
        view = act(players[view["to_act"]], view, next_intent(view))["game"]
    for client, seat in ((alice, 0), (bob, 1)):
        stats = client.get("/api/stats").json()
        assert stats["by_mode"] == [{"name": "together", "played": 1, "won": int(seat in view["outcome"]["winners"])}]
    with app.state.db.session() as session:
        owners = sorted(r.owner for r in session.query(GameResult))
    assert len(owners) == 2 and "" not in owners


def test_a_table_code_is_read_as_people_type_it(alice: TestClient) -> None:
    code = alice.post("/api/tables", json={"roll_off": True}).json()["code"]
    typed = code.lower().replace("1", "l").replace("0", "o")
    assert alice.get(f"/api/tables/{typed}").json()["code"] == code
    assert alice.get("/api/tables/ZZZZZZ").status_code in (404, 400)
    with alice.websocket_connect("/ws/tables/ZZZZZZ") as socket, pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == 4404


# -- training, languages, the command ----------------------------------------------------------------------


def test_training_questions_and_drills(alice: TestClient) -> None:
    question = alice.get("/api/training/question").json()
    assert 2 <= len(question["roll"]) <= 6
    def answer(roll: list[int], set_aside: str) -> dict[str, Any]:
        checked = alice.post("/api/training/question", json={"rules": "farkle", "roll": roll, "keep": set_aside}).json()
        assert isinstance(checked, dict)
        return checked

    right = answer([5, 1, 1, 1, 2, 3], "1115")
    assert right["correct"] is True and right["best_points"] == 1050  # three 1s 1000 + a 5, by hand
    wrong = answer([5, 1, 1, 1, 2, 3], "111")
    assert wrong["correct"] is False and wrong["best_keep"] == "1115"
    assert answer([2, 3, 4, 6, 6, 2], "farkle")["correct"] is True
    drill = alice.get("/api/training/drill").json()
    checked = alice.post("/api/training/drill", json={**drill, "answer": "bank"}).json()
    assert checked["correct"] == (checked["bank_value"] >= checked["roll_value"] - 1e-9)
    bad = alice.post("/api/training/drill", json={"rules": "farkle", "turn_total": 0, "dice": 6, "answer": "bank"})
    assert bad.status_code == 400  # nothing to decide with nothing to bank
    assert alice.get("/api/training/drill", params={"rules": "farkle,min_bank=5000"}).status_code == 400
    assert alice.get("/api/stats").json() == {"games": 0}  # training is never recorded


def test_names_are_shown_as_text_never_as_markup(alice: TestClient) -> None:
    alice.post("/api/me", json={"name": "<b>Bo</b>"})
    page = alice.get("/").text
    assert "<b>Bo</b>" not in page and "&lt;b&gt;Bo&lt;/b&gt;" in page
    view = new_game(alice, mode="solo")
    embedded = alice.get(f"/play/{view['id']}").text
    assert "<b>Bo</b>" not in embedded.split('<script id="view"')[0]


def test_both_languages_have_every_key_used_by_the_pages_and_scripts() -> None:
    assert set(CATALOGS["en"]) == set(CATALOGS["fr"])
    for key, text in CATALOGS["en"].items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", CATALOGS["fr"][key])), key
    used = set()
    for path in (WEB / "templates").glob("*.html"):
        used |= set(re.findall(r"""_\(\s*["']([\w.-]+)["']""", path.read_text(encoding="utf-8")))
    for path in (WEB / "static").glob("*.js"):
        used |= set(re.findall(r"""\bt\(\s*"([\w.-]+)\"""", path.read_text(encoding="utf-8")))
    dynamic = {f"mode.{m}" for m in ("solo", "race", "versus", "together", "daily", "challenge", "pad", "online")}
    dynamic |= {f"level.{lv}" for lv in ("easy", "medium", "hard")}
    dynamic |= {f"moment.{k}" for k in ("hot-dice", "farkle", "bust", "last-round", "entry-missed")}
    dynamic |= {f"hint.{k}" for k in ("keep_then_roll", "keep_then_bank", "then_roll", "then_bank")}
    from hotdice.game.rules import KNOBS
    from hotdice.game.variants import VARIANTS

    dynamic |= {f"knob.{k.name}" for k in KNOBS} | {f"preset.{v.name}" for v in VARIANTS}
    dynamic |= {f"choice.{c}" for k in KNOBS if " or " in k.accepted() and k.name != "dice" and k.kind is not bool
                for c in k.accepted().split(" or ")}
    used = {key for key in used if not key.endswith((".", "_"))}  # prefixes of keys built in the code
    missing = sorted((used | dynamic) - set(CATALOGS["en"]))
    assert not missing, missing


def test_the_french_interface(alice: TestClient) -> None:
    assert alice.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"}).text.count("Jouer") >= 2
    switched = alice.get("/lang/fr", params={"next": "/rules"}, follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/rules"
    page = alice.get("/rules").text
    assert '<html lang="fr">' in page and "Règles maison" in page
    assert alice.get("/lang/fr", params={"next": "https://evil.example"}, follow_redirects=False).headers[
        "location"] == "/"
    view = new_game(alice, mode="versus", level="hard")  # the names are codes, worded by the page
    assert [p["name"] for p in view["players"]] == ["Player", "Computer (Hard)"]
    assert [s["default"] for s in view["seats"]] == [{"code": "player"}, {"code": "computer", "level": "hard"}]


def test_a_refusal_naming_a_seat_nobody_named_words_it_in_the_pages_language(alice: TestClient,
                                                                             bob: TestClient) -> None:
    """The seat's name comes with its seat and the seats' default names: a French page says "Joueur" and
    "L’ordinateur (Facile)", never the English the game holds; the English ``detail`` is as it was."""
    view = new_game(alice, mode="versus", level="easy")  # Alice chose no name
    url = f"/api/games/{view['id']}"
    mine = alice.post(f"{url}/computer", json={"n": view["n"]}).json()
    assert mine["detail"] == "it is Player's turn, not the computer's"
    assert mine["message"] == {"key": "error.not_computer_turn", "values": {"name": "Player", "name_seat": 0},
                               "seats": [{"code": "player"}, {"code": "computer", "level": "easy"}]}
    assert french_of(mine) == "c’est le tour de Joueur, pas celui de l’ordinateur"
    while view["to_act"] == 0:
        view = act(alice, view, next_intent(view))["game"]
    theirs = alice.post(f"{url}/act", json={"n": view["n"], "then": "roll"}).json()
    assert theirs["detail"] == "it is Computer (Easy)'s turn: the computer plays it"
    assert french_of(theirs) == "c’est le tour de L’ordinateur (Facile)\u00a0: l’ordinateur le joue"
    assert worded(theirs, "en") == theirs["detail"]
    code = alice.post("/api/tables", json={}).json()["code"]  # a table: Alice's seat is "Player 1"
    bob.post("/api/me", json={"name": "Bob"})
    bob.post(f"/api/tables/{code}/join", json={})
    table = alice.get(f"/api/games/{alice.post(f'/api/tables/{code}/start').json()['game']}").json()
    while table["to_act"] != 0:
        table = act(bob, table, next_intent(table))["game"]
    other = bob.post(f"/api/games/{table['id']}/act", json={"n": table["n"], "then": "roll"})
    assert other.status_code == 403 and other.json()["detail"] == "it is Player 1's turn, on their own device"
    assert french_of(other.json()) == "c’est le tour de Joueur 1, sur son propre appareil"


def test_a_game_started_in_english_is_shown_in_french_with_french_names(alice: TestClient, bob: TestClient,
                                                                         app: FastAPI) -> None:
    """Nothing stored is in the language the game was started in: the device's player has no name (not
    "Player"), each seat's default name is a code, and a French page words them all in French."""
    english = {"accept-language": "en"}
    together = new_game(alice, mode="together", names=[None, None, "Léa"], rules="farkle,target=500")
    assert [(p["name"], s["default"]) for p, s in zip(together["players"], together["seats"], strict=True)] == [
        ("Player", {"code": "player"}), ("Player 2", {"code": "player", "n": 2}), ("Léa", None)]
    alice.post("/api/daily", headers=english)
    daily = alice.get("/api/daily", headers=english).json()
    play_out(alice, alice.get(f"/api/games/{daily['playing']}").json())
    with app.state.db.session() as session:
        assert session.scalars(select(WebPlayer.name)).all() == [""]  # not the English "Player"
    alice.cookies.set("hotdice_lang", "fr")
    board = alice.get("/daily").text
    assert "<td>Joueur <span" in board and "Player" not in board
    code = alice.post("/api/tables", json={}).json()["code"]
    lobby = alice.get(f"/t/{code}").text
    assert "<li>Joueur <span" in lobby and "Player" not in lobby
    bob.post("/api/me", json={"name": "Bob"})
    bob.post(f"/api/tables/{code}/join", json={})
    game = alice.post(f"/api/tables/{code}/start").json()["game"]
    shown = alice.get(f"/api/games/{game}").json()
    assert [(p["name"], s["default"]) for p, s in zip(shown["players"], shown["seats"], strict=True)] == [
        ("Player 1", {"code": "player", "n": 1}), ("Bob", None)]


@pytest.mark.slow
def test_hotdice_serve_refuses_a_bad_port_in_one_line(tmp_path: Path) -> None:
    env = {"HOTDICE_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    bad = subprocess.run([sys.executable, "-m", "hotdice.cli", "serve", "--port", "70000"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stderr.startswith("hotdice: error:")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run([sys.executable, "-m", "hotdice.cli", "serve", "--port", str(port)], capture_output=True,
                              text=True, env=env, timeout=60)
    assert busy.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in busy.stderr
    assert busy.stderr.count("\n") == 1


def test_one_device_one_player_row(app: FastAPI, alice: TestClient) -> None:
    alice.post("/api/me", json={"name": "Ann"})
    alice.post("/api/me", json={"name": "Ann B"})
    with app.state.db.session() as session:
        from hotdice.store.web_models import WebPlayer

        assert [p.name for p in session.query(WebPlayer)] == ["Ann B"]


def test_the_answers_are_the_declared_schema_of_the_table_view(alice: TestClient) -> None:
    """The view's schema (OpenAPI) is the contract with table.js: every answer reads back as the declared
    WebView, field for field, and nothing else is in it."""
    paths = alice.get("/api/openapi.json").json()["paths"]
    shown = paths["/api/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert shown["$ref"].endswith("/WebView")
    adapter = TypeAdapter(WebView)
    view = new_game(alice, mode="versus", level="easy", rules="5000-fr-6")
    for _ in range(60):
        typed = adapter.validate_python(view)
        assert orjson.loads(orjson.dumps(typed)) == view
        if view["outcome"] is not None:
            break
        if view["seats"][view["to_act"]]["computer"]:
            view = alice.post(f"/api/games/{view['id']}/computer", json={"n": view["n"]}).json()["game"]
        else:
            view = act(alice, view, next_intent(view))["game"]


def test_a_refused_selection_carries_the_engines_reason(alice: TestClient) -> None:
    view = new_game(alice, mode="solo", rules="5000-fr-6")
    for _ in range(200):  # roll until a roll offers a choice, then look at every refused choice of dice
        if view["phase"] == "set-aside" and view["refusals"]:
            break
        view = act(alice, view, {"then": "roll"} if view["phase"] == "decide" else next_intent(view))["game"]
    roll, offered = view["roll"], {o["set_aside"] for o in view["options"]}
    assert view["refusals"]
    for dice, data in view["refusals"].items():
        assert dice == "".join(sorted(dice)) and dice not in offered
        assert all(roll.count(int(d)) >= dice.count(d) for d in set(dice))
        assert data["code"] in {"not-scoring", "every-triple", "would-pass-target"}  # which rule, as data
        assert data["values"]["keep"] == [int(d) for d in dice]  # the engine names the dice it refuses


# -- security headers and origin checks (SECURITY.md, section 6) ----------------------------------------------


class _InlineCode(HTMLParser):
    """What a page holds that its Content-Security-Policy would refuse: inline scripts (JSON data blocks are
    data, not code), event handler attributes and style attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [f"<{tag} {name}=>" for name, _ in attrs if name.startswith("on") or name == "style"]
        if tag == "script":
            self._script = dict(attrs)

    def handle_data(self, data: str) -> None:
        script, self._script = self._script, None
        if script is not None and "src" not in script and script.get("type") != "application/json" and data.strip():
            self.found.append(f"<script>{data[:40]}")


def test_every_answer_carries_the_security_headers_and_no_page_holds_code_its_policy_refuses(
    alice: TestClient,
) -> None:
    game = new_game(alice, mode="solo")["id"]
    challenge = alice.post("/api/challenges", json={}).json()["code"]
    table = alice.post("/api/tables", json={}).json()["code"]
    pages = ["/", "/daily", "/rules", "/stats", "/training", f"/play/{game}", f"/c/{challenge}",
             f"/c/{challenge}/results", f"/t/{table}", "/play/nope"]
    for path in [*pages, f"/api/games/{game}", "/api/nothing", "/static/table.js", "/static/favicon.svg"]:
        answer = alice.get(path)
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "style-src 'self';" in policy, path
        assert "frame-ancestors 'none'" in policy and "unsafe" not in policy, path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["referrer-policy"] == "same-origin", path
    for path in pages:
        parser = _InlineCode()
        parser.feed(alice.get(path).text)
        assert parser.found == [], path


def test_the_api_docs_may_run_their_own_inline_script_and_no_other(alice: TestClient) -> None:
    docs = alice.get("/api/docs")
    assert docs.status_code == 200
    scripts = re.findall(r"<script>(.*?)</script>", docs.text, re.DOTALL)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    policy = docs.headers["content-security-policy"]
    assert f"script-src https://cdn.jsdelivr.net 'sha256-{digest}';" in policy
    assert "frame-ancestors 'none'" in policy and docs.headers["x-content-type-options"] == "nosniff"


FOREIGN = [
    {"origin": "http://evil.example"},
    {"origin": "http://testserver:8080"},  # another port: the same site, another origin
    {"origin": "https://testserver"},  # another scheme
    {"origin": "null"},  # a sandboxed frame, a data: page
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "cross-site", "origin": "http://testserver"},
]


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_state_changing_request_from_another_sites_page_is_refused_and_does_nothing(
    alice: TestClient, headers: dict[str, str]
) -> None:
    code = alice.post("/api/challenges", json={}).json()["code"]
    game = new_game(alice, mode="solo")["id"]
    for path, body in [(f"/api/challenges/{code}/close", None), ("/api/me", {"name": "Mallory"}),
                       ("/api/games", {"mode": "solo"})]:
        refused = alice.post(path, json=body, headers=headers)
        assert refused.status_code == 403, path
        assert refused.json()["code"] == "cross-origin" and refused.json()["detail"] == CROSS_ORIGIN[
            "origin" if headers.get("sec-fetch-site") != "cross-site" else "site"].format(**headers)
        assert french_of(refused.json()).startswith("refusé\u00a0: la requête vient d")
    assert alice.get(f"/api/challenges/{code}").json()["closed"] is False
    assert alice.get("/api/me").json()["name"] != "Mallory"
    with pytest.raises(WebSocketDisconnect) as closed, alice.websocket_connect(f"/ws/games/{game}",
                                                                                headers=headers) as socket:
        told = socket.receive_json()  # why, for the screen to word; then the close
        socket.receive_json()
    assert closed.value.code == 1008  # refused before it opens
    assert told["type"] == "refused" and told["code"] == "cross-origin" and french_of(told)


CROSS_ORIGIN = {"site": "refused: the request was sent by another site's page (Sec-Fetch-Site: cross-site)",
                "origin": "refused: the request was sent by a page of {origin}, not of this site (Origin)"}


@pytest.mark.slow
@pytest.mark.parametrize("headers", [{}, {"origin": "http://testserver"}, {"origin": "HTTP://TestServer:80"},
                                     {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
                                     {"sec-fetch-site": "none"}])
def test_requests_of_the_sites_own_pages_and_without_an_origin_go_through(
    alice: TestClient, headers: dict[str, str]
) -> None:
    game = alice.post("/api/games", json={"mode": "solo"}, headers=headers)
    assert game.status_code == 201, game.text
    with alice.websocket_connect(f"/ws/games/{game.json()['id']}", headers=headers) as socket:
        assert socket.receive_json()["type"] == "game"
    # Reading is not acting: another site's page may link to one of ours (its pages are not readable there).
    assert alice.get(f"/api/games/{game.json()['id']}", headers={"origin": "http://evil.example"}).status_code == 200


def test_a_ten_turn_games_pages_never_show_its_lifted_target(alice: TestClient) -> None:
    """Solo plays the rules chosen with the target lifted to 1000000 (only the turns end it): the table and the
    statistics pages show the rules as chosen, in the text and in the tooltip."""
    alice.post("/api/me", json={"rules": "farkle,entry=500"})
    view = play_out(alice, new_game(alice, mode="solo"))
    assert "target=1000000" in view["rules"] and view["rules_shown"] == "farkle,entry=500"
    for page in (f"/play/{view['id']}", "/stats"):
        html = re.sub(r'<script id="view" type="application/json">.*?</script>', "", alice.get(page).text,
                      flags=re.DOTALL)  # the table's data for its script (never shown), rules as played
        assert "farkle,entry=500" in html and "1000000" not in html and "1,000,000" not in html, page


def test_challenge_results_compare_turn_by_turn(alice: TestClient, bob: TestClient) -> None:
    """Each turn's points of every player (worked out here from the events the game view lists: the score at
    the end of turn t, less the one before), the best of each turn marked."""
    code = alice.post("/api/challenges", json={}).json()["code"]
    expected = {}
    for client, name in ((alice, "Ann"), (bob, "Bob")):
        client.post("/api/me", json={"name": name})
        started = client.post(f"/api/challenges/{code}/play").json()
        view = play_out(client, client.get(f"/api/games/{started['id']}").json())
        ends: dict[int, int] = {}
        for event in client.get(f"/api/games/{started['id']}", params={"since": 0}).json()["events"]:
            if event["turn"] < 10:  # the game's end comes after the tenth turn
                ends[event["turn"]] = event["scores"][0]
        assert len(ends) == 10 and ends[9] == view["players"][0]["score"]
        expected[name] = [ends[t] - ends.get(t - 1, 0) for t in range(10)]
    ranking = alice.get(f"/api/challenges/{code}").json()["ranking"]
    assert {r["name"]: r["turns"] for r in ranking} == expected
    html = alice.get(f"/c/{code}/results").text
    table = html[html.index('<table class="board" id="by-turn">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', table)
    assert [int(turn) for turn, _ in rows] == list(range(1, 11))
    order = [r["name"] for r in ranking]
    for (turn, cells), k in zip(rows, range(10), strict=True):
        shown = re.findall(r'<td class="num( best)?">(-?[\d,]+)</td>', cells)
        assert [int(points.replace(",", "")) for _, points in shown] == [expected[n][k] for n in order], turn
        best = max(expected[n][k] for n in order)
        assert [bool(mark) for mark, _ in shown] == [expected[n][k] == best for n in order], turn
