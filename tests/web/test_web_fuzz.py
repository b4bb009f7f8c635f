"""Fuzzing the whole web service: no request, however malformed, gets a 5xx.

Schemathesis generates requests for every operation of the app's OpenAPI (/api/openapi.json), both ones
that fit the schema and ones that do not, against a real SQLite file, then a PostgreSQL database; every answer
must be one the schema documents (its status, content type, body and headers). Random ids hardly ever name a
stored game, challenge or table, so each request is sent a second time with its path naming real ones, made by
the same device first: the fuzzed bodies then reach the rules. The pages and WebSockets, outside the schema,
get Hypothesis-made paths and parameters; and every route gets malformed JSON, wrong content types, huge
bodies.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.websockets import WebSocketDisconnect

from hotdice.web import Settings, create_app
from hotdice.web.settings import MAX_BODY
from tests.db_support import BACKENDS, fresh_database

EXAMPLES = int(os.environ.get("HOTDICE_FUZZ_EXAMPLES", "15"))  # per operation and mode
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]


@pytest.fixture(scope="module", params=BACKENDS)
def served(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FastAPI, TestClient, dict[str, str]]]:
    """The app on SQLite, then PostgreSQL (rates off: the fuzzer asks far faster than a person), a device, and
    things it made."""
    directory = tmp_path_factory.mktemp("fuzz")
    for url in fresh_database(request.param, directory):
        app = create_app(Settings(data_dir=directory, database_url=url).unlimited())
        client = TestClient(app)  # not its lifespan: Schemathesis runs it, on its own event loop, for each test
        yield app, client, _made(client)
        app.state.db.close()  # before the PostgreSQL database is dropped


def _made(client: TestClient) -> dict[str, str]:
    """A game of each mode, a challenge and a table, made by the client's device."""
    made: dict[str, str] = {}
    for mode in ("solo", "race", "versus"):
        made[f"game_{mode}"] = client.post("/api/games", json={"mode": mode}).json()["id"]
    assert client.get(f"/api/games/{made['game_race']}/hint").status_code == 200  # solved once, not timed
    made["code"] = client.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
    made["table"] = client.post("/api/tables", json={}).json()["code"]
    assert all(made.values())
    return made


@pytest.fixture
def api_schema(served: tuple[FastAPI, TestClient, dict[str, str]]) -> Any:
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", served[0])
    schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                                    max_examples=EXAMPLES, deterministic=True)
    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


def _real_paths(case: Any, made: dict[str, str]) -> list[dict[str, Any]]:
    """The case's path parameters naming stored things instead (several games: solo, race, against the
    computer; not a hint against the computer, whose first one solves the two-player game: minutes)."""
    params = dict(case.path_parameters or {})
    if "game_id" in params:
        modes = ("solo", "race") if case.path.endswith("/hint") else ("solo", "race", "versus")
        return [{**params, "game_id": made[f"game_{mode}"]} for mode in modes]
    if "code" in params:
        return [{**params, "code": made["table" if "/tables/" in case.path else "code"]}]
    return []


@pytest.mark.slow
@schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_no_request_to_the_api_gets_a_5xx(case: Any, served: tuple[FastAPI, TestClient, dict[str, str]]) -> None:
    _, client, made = served
    cookies = dict(client.cookies)
    case.call_and_validate(cookies=cookies, checks=CHECKS)
    for params in _real_paths(case, made):
        case.path_parameters = params
        case.call_and_validate(cookies=cookies, checks=CHECKS)


# -- outside the schema: pages and WebSockets -----------------------------------------------------------

PAGES = ["/", "/play/{}", "/daily", "/c/{}", "/c/{}/results", "/t/{}", "/rules", "/stats", "/training", "/lang/{}"]
segments = st.text(st.characters(codec="utf-8", exclude_characters="/?#"), max_size=60)


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=list(HealthCheck))
@given(page=st.sampled_from(PAGES), segment=segments, query=st.dictionaries(segments, segments, max_size=3))
def test_no_page_gets_a_5xx(
    served: tuple[FastAPI, TestClient, dict[str, str]], page: str, segment: str, query: dict[str, str]
) -> None:
    _, client, _ = served
    answer = client.get(page.format(quote(segment, safe="")), params=query, follow_redirects=False)
    assert answer.status_code < 500, answer.text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(kind=st.sampled_from(["games", "tables"]), segment=segments)
def test_no_websocket_address_gets_a_5xx(served: tuple[FastAPI, TestClient, dict[str, str]], kind: str,
                                         segment: str) -> None:
    _, client, _ = served
    try:
        with client.websocket_connect(f"/ws/{kind}/{quote(segment, safe='')}") as socket:
            assert socket.receive_json()["type"] in ("game", "table", "refused")  # refused: then closed 1008
    except WebSocketDisconnect as closed:
        assert closed.code in (1000, 1008, 4404)


# -- malformed bodies on every route that takes one ------------------------------------------------------


def _posts(app: FastAPI, made: dict[str, str]) -> list[tuple[str, bool]]:
    """Every POST operation of the API, with real ids in its path, and whether it reads a body."""
    paths = []
    for path, operations in app.openapi()["paths"].items():
        if "post" in operations:
            code = made["table"] if path.startswith("/api/tables/") else made["code"]
            filled = path.replace("{game_id}", made["game_solo"]).replace("{code}", code)
            paths.append((filled, "requestBody" in operations["post"]))
    return paths


BAD_BODIES: list[tuple[bytes, str]] = [
    (b"{", "application/json"),
    (b'{"n": 1e999, "mode": NaN}', "application/json"),
    (b"\xff\xfe\x00", "application/json"),
    (b"[" * 5000 + b"]" * 5000, "application/json"),
    (b'{"a": ' * 3000 + b"1" + b"}" * 3000, "application/json"),
    (b"null", "application/json"),
    (b'"text"', "application/json"),
    (b"mode=solo", "application/x-www-form-urlencoded"),
    (b"--x\r\nContent-Disposition: form-data; name=mode\r\n\r\nsolo\r\n--x--", "multipart/form-data; boundary=x"),
    (b"<mode>solo</mode>", "text/xml"),
    (b'{"mode": "solo"}', "text/plain"),
    (b'{"mode": "solo"}', ""),
    (b"x" * (MAX_BODY + 1), "application/json"),
    (b"x" * (4 * 1024 * 1024), "application/octet-stream"),
]


@pytest.mark.parametrize(("body", "content_type"), BAD_BODIES, ids=[f"bad{i}" for i in range(len(BAD_BODIES))])
def test_malformed_bodies_get_a_4xx(served: tuple[FastAPI, TestClient, dict[str, str]], body: bytes,
                                    content_type: str) -> None:
    """A route that reads a body refuses these with a reason; one that reads none may ignore them (but
    not a body over the cap, refused before any route is reached)."""
    app, client, made = served
    paths = _posts(app, made)
    assert sum(reads for _, reads in paths) >= 9 and len(paths) >= 13  # every POST operation of the API
    for path, reads in paths:
        headers = {"content-type": content_type} if content_type else {}
        answer = client.post(path, content=body, headers=headers)
        assert answer.status_code < 500, f"{path}: {answer.status_code} {answer.text}"
        if reads or len(body) > MAX_BODY:
            assert 400 <= answer.status_code < 500, f"{path}: {answer.status_code} {answer.text}"
            assert answer.json()["detail"]
