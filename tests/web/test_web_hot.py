"""The moves' three routes answered without FastAPI's routing (hotdice.web.hot): taken for well-formed
requests, and answering exactly as FastAPI's own routes do, refusals included."""

from __future__ import annotations

from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.web import Settings, create_app
from hotdice.web.hot import HotRoutes
from tests.web_support import next_intent


def _app(folder: Path, hot: bool) -> FastAPI:
    folder.mkdir()
    app = create_app(Settings(data_dir=folder).unlimited())
    if not hot:  # the middleware stack is built at the first request: FastAPI's routes answer everything
        app.user_middleware = [m for m in app.user_middleware if m.cls is not HotRoutes]
    return app


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """A device on the app as served, and one on the same app without the hot routes."""
    hot, plain = _app(tmp_path / "hot", True), _app(tmp_path / "plain", False)
    with TestClient(hot) as a, TestClient(plain) as b:
        yield a, b
    hot.state.db.close()
    plain.state.db.close()


def test_moves_are_answered_without_solving_dependencies(
    clients: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    solved: list[str] = []
    solve = fastapi.routing.solve_dependencies

    def counted(*args: Any, **kwargs: Any) -> Awaitable[Any]:
        solved.append(kwargs["request"].url.path)
        return solve(*args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counted)
    alice = clients[0]
    made = alice.post("/api/games", json={"mode": "versus", "level": "easy"}).json()
    path = f"/api/games/{made['id']}"
    assert solved == ["/api/games"]
    view = alice.get(path).json()
    for _ in range(30):
        if view["outcome"] is not None:
            break
        if view["seats"][view["to_act"]]["computer"]:
            answer = alice.post(f"{path}/computer", json={"n": view["n"]})
        else:
            answer = alice.post(f"{path}/act", json={"n": view["n"], **next_intent(view)})
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    assert solved == ["/api/games"]
    # What is not plainly well-formed goes to FastAPI's route, which says what is wrong.
    assert alice.post(f"{path}/act", json={"n": "many"}).status_code == 422
    assert alice.post(f"{path}/act", content=b'{"n": 1}', headers={"content-type": "text/plain"}).status_code == 422
    assert solved == ["/api/games", f"{path}/act", f"{path}/act"]


# Requests to a fresh solo game at action 0 ("{id}": its id), and what the hot routes must answer as FastAPI's do.
REQUESTS: list[tuple[str, str, Any, dict[str, str] | None]] = [
    ("GET", "/api/games/{id}", None, None),
    ("GET", "/api/games/nosuchgameatall0", None, None),
    ("GET", "/api/games/nosuchgame", None, None),
    ("GET", "/api/games/" + "x" * 33, None, None),
    ("GET", "/api/games/nosuchgameatal%00", None, None),
    ("POST", "/api/games/{id}/act", {"n": 4, "then": "roll"}, None),
    ("POST", "/api/games/{id}/act", {"n": 0}, None),
    ("POST", "/api/games/{id}/act", {"n": 0, "then": "bank"}, None),
    ("POST", "/api/games/{id}/act", {"n": 0, "keep": "77"}, None),
    ("POST", "/api/games/{id}/act", {"n": 0, "then": "roll", "dice": "123"}, None),
    ("POST", "/api/games/{id}/act", {"n": 0, "then": "jump"}, None),
    ("POST", "/api/games/{id}/act", {"n": 0, "then": "roll", "more": 1}, None),
    ("POST", "/api/games/{id}/act", {"n": -1, "then": "roll"}, None),
    ("POST", "/api/games/{id}/act", [0], None),
    ("POST", "/api/games/{id}/act", b"{n: 0", {"content-type": "application/json"}),
    ("POST", "/api/games/nosuchgameatall0/act", {"n": 0, "then": "roll"}, None),
    ("POST", "/api/games/nosuchgame/act", {"n": 0, "then": "roll"}, None),
    ("POST", "/api/games/nosuchgameatal%00/computer", {"n": 0}, None),
    ("POST", "/api/games/{id}/computer", {"n": 0}, None),
    ("POST", "/api/games/{id}/computer", {"n": 9}, None),
    ("POST", "/api/games/{id}/computer", {}, None),
    ("PUT", "/api/games/{id}/act", {"n": 0}, None),
]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path", "body", "headers"), REQUESTS)
def test_the_hot_routes_answer_as_fastapis_own(
    clients: tuple[TestClient, TestClient], method: str, path: str, body: Any, headers: dict[str, str] | None
) -> None:
    answers = []
    for client in clients:
        made = client.post("/api/games", json={"mode": "solo"}).json()
        sent = {"content": body} if isinstance(body, bytes) else {} if body is None else {"json": body}
        answer = client.request(method, path.replace("{id}", made["id"]), headers=headers, **sent)
        answers.append((answer.status_code, answer.headers["content-type"], answer.text.replace(made["id"], "ID")))
    assert answers[0] == answers[1]
    assert answers[0][0] in (200, 400, 403, 404, 405, 409, 422)


def test_a_watcher_is_refused_and_a_repeat_changes_nothing_on_both(clients: tuple[TestClient, TestClient]) -> None:
    for client in clients:
        made = client.post("/api/games", json={"mode": "solo"}).json()
        path = f"/api/games/{made['id']}"
        watcher = TestClient(client.app)  # another device
        assert watcher.get(path).json()["you"] == []
        refused = watcher.post(f"{path}/act", json={"n": 0, "then": "roll"})
        assert refused.status_code == 403
        reason = "you are watching this game: only its players can play"
        said = {"key": "error.watching", "values": {}}
        assert refused.json() == {"detail": reason, "code": "forbidden", "message": said}
        first = client.post(f"{path}/act", json={"n": 0, "then": "roll"}).json()
        again = client.post(f"{path}/act", json={"n": 0, "then": "roll"}).json()
        assert (first["applied"], again["applied"]) == (True, False)
        assert again["game"] == first["game"] and client.get(path).json()["you"] == [0]
