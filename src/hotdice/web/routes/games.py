"""Games on one device (solo, race, against the computer, together, score pad) and the play of every game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.record import Record
from hotdice.web.deps import HubDep, PlayerDep, SessionDep, TranslatorDep, VisitorDep
from hotdice.web.schemas import GameId, IntentIn, NewGame, StepIn
from hotdice.web.services import games, records
from hotdice.web.services.games import Acted, Intent

router = APIRouter(prefix="/api/games", tags=["games"])


def _answer(acted: Acted, hub: HubDep) -> dict[str, Any]:
    if acted.applied:
        hub.publish(f"game:{acted.view['id']}", {"type": "game", "view": {**acted.view, "you": []}})
    message = "done" if acted.applied else "this action was already applied: nothing changed"
    return {"applied": acted.applied, "message": message, "game": acted.view}


@router.post("", status_code=201)
def new_game(body: NewGame, player: PlayerDep, session: SessionDep, t: TranslatorDep) -> dict[str, Any]:
    computer = f"{t('game.computer')} ({t('level.' + body.level)})" if body.level in games.LEVELS else ""
    row = games.create(session, player, body.mode, rules=body.rules, names=body.names, level=body.level,
                       roll_off=body.roll_off, computer_name=computer)
    session.commit()
    return {"id": row.id, "url": f"/play/{row.id}"}


@router.get("/{game_id}")
def get_game(game_id: GameId, session: SessionDep, visitor: VisitorDep) -> dict[str, Any]:
    return games.view(games.load(session, game_id), None if visitor is None else visitor.id)


@router.post("/{game_id}/act")
def act(game_id: GameId, body: IntentIn, player: PlayerDep, session: SessionDep, hub: HubDep) -> dict[str, Any]:
    """Set dice aside and/or roll or bank, at action number ``n``; a repeat or a stale number changes nothing."""
    acted = games.act(session, game_id, player, Intent(body.n, body.keep, body.then, body.dice))
    session.commit()
    return _answer(acted, hub)


@router.post("/{game_id}/computer")
def computer(game_id: GameId, body: StepIn, player: PlayerDep, session: SessionDep, hub: HubDep) -> dict[str, Any]:
    """One decision of the computer (in a worker thread, off the event loop, like every route here)."""
    acted = games.computer_step(session, game_id, player, body.n)
    session.commit()
    return _answer(acted, hub)


@router.get("/{game_id}/hint")
def hint(game_id: GameId, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    return games.hint(session, game_id, player)


@router.get("/{game_id}/record")
def record(game_id: GameId, session: SessionDep) -> dict[str, Any]:
    """The record of a finished game; its dice key only once it no longer gives anything away."""
    found: Record = records.public_record(session, game_id)
    return found.to_json()
