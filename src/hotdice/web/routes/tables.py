"""Online tables: create, join, start; every screen at the table is told of each change."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.deps import HubDep, PlayerDep, SessionDep, VisitorDep
from hotdice.web.schemas import EDGE, Code, JoinTable, NewTable, TableMade, refusals
from hotdice.web.services import tables

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=EDGE)


@router.post("", status_code=201, response_model=TableMade)
def create(body: NewTable, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    found = tables.create(session, player, body.rules, body.roll_off)
    session.commit()
    return {"code": found.code, "url": f"/t/{found.code}"}


@router.get("/{code}", responses=refusals(404))
def state(code: Code, session: SessionDep, visitor: VisitorDep) -> dict[str, Any]:
    return tables.state(session, code, visitor)


@router.post("/{code}/join", responses=refusals(404, 409))
def join(code: Code, body: JoinTable, player: PlayerDep, session: SessionDep, hub: HubDep) -> dict[str, Any]:
    found = tables.join(session, code, player, body.name)
    hub.commit(session, f"table:{found.code}", {"type": "table"})
    return tables.state(session, found.code, player)


@router.post("/{code}/start", responses=refusals(403, 404, 409))
def start(code: Code, player: PlayerDep, session: SessionDep, hub: HubDep) -> dict[str, Any]:
    found = tables.start(session, code, player)
    hub.commit(session, f"table:{found.code}", {"type": "table"})
    return tables.state(session, found.code, player)
