"""When the dice key of a seeded game is revealed: a daily's at the midnight (UTC) ending its day, a
challenge's once it has closed and its last attempt started has ended, or at its grace deadline (:data:`GRACE`
after the close), whichever comes first. From that moment every roll of the game is known, so nothing more is played on
it: an attempt not finished by then ends there, unfinished, and ranks below every finished one.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.store.web_models import WebChallenge, WebGame
from hotdice.web import clock
from hotdice.web.db import hold

__all__ = ["GRACE", "aware", "challenge_revealed_at", "day_revealed_at", "revealed_at"]

GRACE = timedelta(hours=24)  # after a challenge closes, for the attempts under way to finish


def aware(moment: datetime) -> datetime:
    """``moment`` in UTC: SQLite gives back naive datetimes, and everything stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def day_revealed_at(day: date) -> datetime:
    """When a daily's key is revealed: the midnight (UTC) that ends its day."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def revealed_at(session: Session, game: WebGame, *, held: bool = False, now: datetime | None = None) -> datetime | None:
    """When the key of ``game``'s dice is (or will be) revealed, as it stands at ``now``; None for a game whose
    dice have no key.

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
    return challenge_revealed_at(session, game.challenge_code, aware(closes), now)


def challenge_revealed_at(session: Session, code: str, closes: datetime, now: datetime | None = None) -> datetime:
    """A challenge's reveal: once it has closed (no new attempt then), when its last attempt started ends, or
    :data:`GRACE` after the close, whichever comes first. Before the close (at ``now``) it is not known yet:
    the grace deadline stands for it, later than any action accepted meanwhile."""
    deadline = closes + GRACE
    if (now or clock.now()) < closes:
        return deadline
    attempts = session.execute(select(WebGame.over, WebGame.record).where(WebGame.challenge_code == code)).all()
    if not all(over for over, _ in attempts):
        return deadline
    ends = [_last_played(record) for _, record in attempts]
    return min(deadline, max([closes, *(end for end in ends if end is not None)]))


def _last_played(record: str) -> datetime | None:
    """When the last line of a stored record was played (None: nothing played, or no times kept)."""
    played = json.loads(record).get("played_at") or []
    return datetime.fromisoformat(played[-1]) if played else None  # as time_text writes it: UTC, with its Z
