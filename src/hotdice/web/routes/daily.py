"""The daily game."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from hotdice.web.deps import PlayerDep, SessionDep, SettingsDep, VisitorDep
from hotdice.web.errors import BadRequest
from hotdice.web.schemas import EDGE, DailyMade, refusals
from hotdice.web.services import daily

router = APIRouter(prefix="/api/daily", tags=["daily"], responses=EDGE)
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@router.post("", status_code=201, response_model=DailyMade)
def start(player: PlayerDep, session: SessionDep, settings: SettingsDep) -> dict[str, Any]:
    """Today's attempt: the unfinished one, or a new one (official only if it is the first of the day)."""
    row = daily.start(session, settings, player)
    session.commit()
    return {"id": row.id, "url": f"/play/{row.id}", "official": row.official}


@router.get("", responses=refusals(409))
def today(session: SessionDep, settings: SettingsDep, visitor: VisitorDep,
          day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """Today's daily; ``day``: a past day's (its leaderboard as ranked once its key was revealed)."""
    data = daily.page(session, settings, visitor, day=None if day is None else parse_day(day))
    session.commit()
    return data


def parse_day(day: str) -> date:
    """A day of the address (YYYY-MM-DD), or a 400 that says why."""
    try:
        wanted = date.fromisoformat(day) if _DAY.fullmatch(day) else None
    except ValueError:
        wanted = None
    if wanted is None:
        raise BadRequest.said("error.not_a_day", day=day)
    return wanted


@router.get("/{day}/key", responses=refusals(409))
def day_key(
    day: Annotated[str, Path(max_length=10)], session: SessionDep, settings: SettingsDep
) -> dict[str, Any]:
    """The day's commitment (SHA-256 of its dice key) from the day it opens; its key once the day is over."""
    found = daily.day_key(session, settings, parse_day(day))
    session.commit()  # the server key, made on first use
    return found
