"""Games on one device (solo, race, against the computer, together, score pad) and the play of every game.

A well-formed action, computer step or look at a game is answered through :mod:`hotdice.web.hot`, which calls
the functions below without FastAPI's routing; their declarations here give the OpenAPI schema, and they
answer (and refuse) every request of those routes that is not plainly well-formed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from fastapi import APIRouter, Response
from sqlalchemy.orm import Session

from hotdice.analysis.solver.background import Status
from hotdice.game.record import Record
from hotdice.play.hint import Hint
from hotdice.web.deps import HubDep, PlayerDep, PlayerIdDep, SessionDep, VisitorDep
from hotdice.web.errors import ENGLISH
from hotdice.web.hub import Hub
from hotdice.web.schemas import EDGE, ActedOut, GameId, IntentIn, Made, NewGame, ReviewOut, Since, StepIn, refusals
from hotdice.web.services import games, records, reviews
from hotdice.web.services.games import ActRequest, ActResult, Notice, WebView

router = APIRouter(prefix="/api/games", tags=["games"], responses=EDGE)
def answer_json(answer: object) -> Response:
    """The answer as JSON text, written here in the request's worker thread: a dict returned from a route
    is gone over again by FastAPI (and handed to another worker thread) to be serialized."""
    return Response(orjson.dumps(answer), media_type="application/json")


def _live(view: WebView) -> dict[str, Any]:
    """What the game's screens are told of its new view (``you``: each screen knows its own seats)."""
    return {"type": "game", "view": replace(view, you=())}


def _notice(hub: Hub) -> Notice:
    """The live update as text to send with the write itself, where the hub's channel allows it."""
    return lambda view: hub.within(f"game:{view.id}", _live(view))


def _answer(acted: ActResult, session: Session, hub: HubDep) -> Response:
    """Commit what was done, telling the game's screens if it changed (in the same transaction where the
    channel allows it, with the write itself where it could), and answer."""
    if acted.applied:
        hub.commit(session, f"game:{acted.view.id}", _live(acted.view), sent=acted.announced)
    else:
        session.commit()
    if acted.written is not None:
        games.remember(acted.written)  # committed: the next action may take it as it is
    if acted.waiting is not None:
        key, values = _waiting(acted.waiting)
        return answer_json({"applied": False, "message": ENGLISH(key, **values),
                            "said": {"key": key, "values": values},
                            "game": acted.view, "waiting": acted.waiting.json()})
    key = "answer.done" if acted.applied else "answer.already_applied"
    return answer_json({"applied": acted.applied, "message": ENGLISH(key), "said": {"key": key, "values": {}},
                        "game": acted.view})


def _waiting(status: Status) -> tuple[str, dict[str, Any]]:
    """What a computer step not taken says (a catalogue key and values): how far the table its Hard waits for is."""
    if status.state == "full":
        return "answer.hard_waiting", {"reason": status.reason}
    return "answer.hard_progress", {"percent": round(100 * status.progress)}


@router.post("", status_code=201, response_model=Made)
def new_game(body: NewGame, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    row = games.create(session, player, body.mode, rules=body.rules, names=body.names, level=body.level,
                       roll_off=body.roll_off, wait=body.wait)
    session.commit()
    return {"id": row.id, "url": f"/play/{row.id}"}


@router.get("/{game_id}", response_model=WebView, responses=refusals(404, 409))
def get_game(game_id: GameId, session: SessionDep, visitor: VisitorDep, since: Since = None) -> Response:
    """The game now, with its events from number ``since`` on (default: the last few): what a screen that
    missed some asks for."""
    return answer_json(games.view_by_id(session, game_id, None if visitor is None else visitor.id, since))


@router.post("/{game_id}/act", response_model=ActedOut, responses=refusals(403, 404, 409))
def act(game_id: GameId, body: IntentIn, player: PlayerIdDep, session: SessionDep, hub: HubDep) -> Response:
    """Set dice aside and/or roll or bank, at action number ``n``; a repeat or a stale number changes nothing."""
    acted = games.act(session, game_id, player, ActRequest(body.n, body.keep, body.then, body.dice), _notice(hub))
    return _answer(acted, session, hub)


@router.post("/{game_id}/computer", response_model=ActedOut, responses=refusals(403, 404, 409))
def computer(game_id: GameId, body: StepIn, player: PlayerIdDep, session: SessionDep, hub: HubDep) -> Response:
    """One decision of the computer (in a worker thread, off the event loop, like every route here)."""
    acted = games.computer_step(session, game_id, player, body.n, _notice(hub))
    return _answer(acted, session, hub)


@router.get("/{game_id}/hint", response_model=Hint, responses=refusals(403, 404, 409))
def hint(game_id: GameId, player: PlayerIdDep, session: SessionDep) -> Response:
    """The coach's choices for the player to act, best first, as facts (the page words them)."""
    return answer_json(games.hint(session, game_id, player))


@router.get("/{game_id}/record", responses=refusals(404, 409))
def record(game_id: GameId, session: SessionDep) -> dict[str, Any]:
    """The record of a finished game; its dice key only once it no longer gives anything away."""
    found: Record = records.public_record(session, game_id)
    return found.to_json()


@router.get("/{game_id}/review", response_model=ReviewOut, responses=refusals(404, 409))
def review(game_id: GameId, session: SessionDep) -> Response:
    """The game's review once it is over (a daily's or a challenge's attempt: once that attempt is over): every
    roll and decision of every seat weighed exactly; 409 before, or while its table is being solved."""
    return Response(reviews.review_json(session, game_id), media_type="application/json")
