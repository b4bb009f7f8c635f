"""Your games: what waits for you, what you have under way, what you finished (``GET /api/me/games``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel
from sqlalchemy.orm import Session

from hotdice.web.deps import DeviceDep, SessionDep
from hotdice.web.schemas import EDGE
from hotdice.web.services import players
from hotdice.web.services.your_games import your_games

router = APIRouter(prefix="/api/me", tags=["players"], responses=EDGE)


class YourGame(BaseModel):
    """One game of yours, as a list shows it. A friend challenge received and not played yet has no game: its
    entry is the challenge's (``id`` and ``challenge`` its code, ``url`` its page, one seat to play, nothing
    scored, ``updated_at`` when you opened it)."""

    id: str  # the game's id; a challenge received and not played: its code
    url: str  # where to resume or see it: the game's page, its online table's, or a challenge received's
    mode: str  # a hotdice.play.modes.Mode value, or "online"
    rules: str  # the rules string as chosen
    players: int
    you: list[int]  # the seats you play
    score: int  # your (first) seat's score
    scores: list[int]  # every seat's
    day: str | None  # a daily's day
    challenge: str | None  # a friend challenge's code
    table: str | None  # an online table's code
    updated_at: datetime
    your_turn: bool  # you are to play now (on an online table: when it is your seat's turn)
    result: Literal["won", "lost"] | None  # a finished game with someone to beat; None otherwise
    review_url: str | None  # a finished game's review (/review/{id}); None while it is under way


class YourGames(BaseModel):
    """``waiting``: online tables where it is your turn and friend challenges received (opened, made by someone
    else) not played while they are open, the latest first; ``in_progress``: the other unfinished games (the latest
    50); ``finished``: a page of finished games, the latest first (``next_offset``: the next page's offset, None
    at the end); ``daily_to_play``: today's day (UTC) while your official daily attempt is not made."""

    waiting: list[YourGame]
    in_progress: list[YourGame]
    finished: list[YourGame]
    daily_to_play: str | None
    next_offset: int | None


def _yours(session: Session, token: str, offset: int, limit: int) -> dict[str, Any]:
    return your_games(session, players.find(session, token), offset, limit)


@router.get("/games", response_model=YourGames)
async def games(session: SessionDep, token: DeviceDep,
                offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
    """Your games, in three lists; the finished ones paged by ``offset`` and ``limit``."""
    # The database's work in one worker thread: a plain route hands off three times (the device's player, the
    # route, the answer's check), and on a busy machine each hand-off waits its turn (the answer's p99).
    return await run_in_threadpool(_yours, session, token, offset, limit)
