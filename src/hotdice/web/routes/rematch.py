"""Rematch: one action after any finished game (``POST /api/games/{id}/rematch``)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel

from hotdice.web.deps import HubDep, PlayerDep, SessionDep
from hotdice.web.errors import Conflict
from hotdice.web.schemas import EDGE, GameId, refusals
from hotdice.web.services.rematch import rematch

router = APIRouter(prefix="/api/games", tags=["games"], responses=EDGE)


class RematchMade(BaseModel):
    """The rematch: a new game (``id``: its id), a new friend challenge or a new online table (``id``: its
    code), and its page. A 409 that refuses a second rematch carries the first as ``rematch``."""

    kind: Literal["game", "challenge", "table"]
    id: str
    url: str


@router.post("/{game_id}/rematch", status_code=201, response_model=RematchMade,
             responses=refusals(403, 404, 409))
def make(game_id: GameId, player: PlayerDep, session: SessionDep, hub: HubDep) -> dict[str, Any]:
    """The same kind of game with the same players and rules, the next player first; 409 before the end, for a
    daily, or when the rematch exists (the same one is carried back: a double tap makes one game)."""
    made, before = rematch(session, game_id, player)
    if before:
        session.commit()  # a seat taken at the new table
        raise Conflict.said("error.rematch_exists").carrying(rematch=made)
    hub.commit(session, f"game:{game_id}", {"type": "rematch", "rematch": made})  # its other screens see the offer
    return made
