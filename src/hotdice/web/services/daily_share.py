"""The daily's share text and the daily streak of a web player (:mod:`hotdice.play.daily_share`,
:mod:`hotdice.store.daily_streak`): offered once the player's official attempt of the day is over."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.i18n import Translator
from hotdice.play.daily import daily_day
from hotdice.play.daily_share import DailyShare, turn_marks
from hotdice.play.modes import Mode
from hotdice.store import GameResult
from hotdice.store.daily_streak import daily_streaks
from hotdice.store.web_models import WebGame, WebPlayer
from hotdice.web import clock
from hotdice.web.db import as_owner
from hotdice.web.errors import Conflict
from hotdice.web.services import daily, games
from hotdice.web.settings import Settings

__all__ = ["share", "streaks"]


def streaks(session: Session, player: WebPlayer | None, now: datetime | None = None) -> tuple[int, int]:
    """(current, best) daily streak of ``player`` at ``now``; (0, 0) for a visitor who never played."""
    if player is None:
        return 0, 0
    with as_owner(session, player.id):
        days = session.scalars(select(GameResult.official_day).where(GameResult.official_day.is_not(None)))
        return daily_streaks((d for d in days if d is not None), daily_day(now or clock.now()))


def share(session: Session, settings: Settings, player: WebPlayer | None, day: date, t: Translator,
          now: datetime | None = None) -> dict[str, Any]:
    """The share text of ``player``'s official attempt at ``day``'s daily, with its figures; refused (409)
    while that attempt is not over, or when there is none."""
    now = now or clock.now()
    attempt = None if player is None else session.scalar(
        select(WebGame).where(WebGame.owner_id == player.id, WebGame.mode == Mode.DAILY, WebGame.official_day == day)
    )
    if player is None or attempt is None or not attempt.over:
        raise Conflict.said("error.daily_not_played", day=day.isoformat())
    board = daily.leaderboard(session, day, now)
    rank = next(r.rank for r, game in board if game.id == attempt.id)
    current, best = streaks(session, player, now)
    shared = DailyShare(day=day.isoformat(), score=attempt.score, par=daily.par(session, settings, day), rank=rank,
                        players=len(board), streak=current, marks=turn_marks(games.load(session, attempt.id).game))
    return {
        "day": shared.day,
        "score": shared.score,
        "par": shared.par,
        "rank": shared.rank,
        "players": shared.players,
        "daily_streak": current,
        "best_daily_streak": best,
        "marks": [m.value for m in shared.marks],
        "text": shared.text(t),
        "plain": shared.plain(t),
    }
