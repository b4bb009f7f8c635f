"""The daily game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.deps import PlayerDep, SessionDep, SettingsDep, VisitorDep
from hotdice.web.services import daily

router = APIRouter(prefix="/api/daily", tags=["daily"])


@router.post("", status_code=201)
def start(player: PlayerDep, session: SessionDep, settings: SettingsDep) -> dict[str, Any]:
    """Today's attempt: the unfinished one, or a new one (official only if it is the first of the day)."""
    row = daily.start(session, settings, player)
    session.commit()
    return {"id": row.id, "url": f"/play/{row.id}", "official": row.official}


@router.get("")
def today(session: SessionDep, settings: SettingsDep, visitor: VisitorDep) -> dict[str, Any]:
    data = daily.page(session, settings, visitor)
    session.commit()
    return data
