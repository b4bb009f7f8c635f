"""When the dice key of a seeded game is revealed: a daily's at the midnight (UTC) ending its day, a
challenge's when it closes. From that moment every roll of the game is known, so nothing more is played on
it: an attempt not finished by then ends there, unfinished, and ranks below every finished one.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.store.web_models import WebChallenge, WebGame
from hotdice.web.db import hold

__all__ = ["aware", "day_revealed_at", "revealed_at"]


def aware(moment: datetime) -> datetime:
    """``moment`` in UTC: SQLite gives back naive datetimes, and everything stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def day_revealed_at(day: date) -> datetime:
    """When a daily's key is revealed: the midnight (UTC) that ends its day."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def revealed_at(session: Session, game: WebGame, *, held: bool = False) -> datetime | None:
    """When the key of ``game``'s dice is (or will be) revealed; None for a game whose dice have no key.

    ``held``: the challenge's row is held to the end of the transaction first (:func:`hotdice.web.db.hold`),
    so that a challenge closing meanwhile waits for this transaction, or is seen closed by it: an action
    checked against the time read here cannot be accepted after the key was shown to anyone.
    """
    if game.day is not None:
        return day_revealed_at(game.day)
    if game.challenge_code is None:
        return None
    if held:
        hold(session, WebChallenge, game.challenge_code)
    closes = session.scalar(select(WebChallenge.closes_at).where(WebChallenge.code == game.challenge_code))
    assert closes is not None  # a foreign key
    return aware(closes)
