"""The daily's share text (after the player's official attempt)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel

from hotdice.web.deps import SessionDep, SettingsDep, TranslatorDep, VisitorDep
from hotdice.web.routes.daily import parse_day
from hotdice.web.schemas import EDGE, refusals
from hotdice.web.services.daily_share import share

router = APIRouter(prefix="/api/daily", tags=["daily"], responses=EDGE)


class DailyShareOut(BaseModel):
    """A share text that spoils no dice, in the request's language: ``text`` with one emoji a turn, ``plain``
    the same in ASCII with its legend (screen readers, places where emoji do not render)."""

    day: str
    score: int
    par: int  # the computer's score on the same dice
    rank: int  # on the day's leaderboard, now
    players: int  # official results on it now
    daily_streak: int
    best_daily_streak: int
    marks: list[Literal["farkle", "hot_dice", "big_bank", "banked"]]  # one a turn
    text: str
    plain: str


@router.get("/{day}/share", response_model=DailyShareOut, responses=refusals(409))
def daily_share(day: Annotated[str, Path(max_length=10)], session: SessionDep, settings: SettingsDep,
                visitor: VisitorDep, t: TranslatorDep) -> dict[str, Any]:
    """The share text of your official attempt at ``day`` (YYYY-MM-DD); 409 until that attempt is over."""
    found = share(session, settings, visitor, parse_day(day), t)
    session.commit()  # par, computed once
    return found
