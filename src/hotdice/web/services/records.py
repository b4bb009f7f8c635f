"""Records of finished games for anyone to replay and check, without what they could still give away."""

from __future__ import annotations

import dataclasses

from sqlalchemy.orm import Session

from hotdice.modes import daily_day
from hotdice.record import Record
from hotdice.store.web_models import WebChallenge
from hotdice.web.errors import Conflict
from hotdice.web.services.challenges import is_closed
from hotdice.web.services.games import find

__all__ = ["public_record"]


def public_record(session: Session, game_id: str) -> Record:
    """The record; its dice key is left out while it would reveal dice others have yet to play: a daily's
    until its day is over, a challenge's until it closes."""
    row = find(session, game_id)
    if not row.over:
        raise Conflict("a game's record is given once the game is over")
    record = Record.from_json(row.record)
    hidden = (row.day is not None and row.day >= daily_day()) or (
        row.challenge_code is not None and not is_closed(_challenge(session, row.challenge_code))
    )
    return dataclasses.replace(record, seed=None) if hidden else record


def _challenge(session: Session, code: str) -> WebChallenge:
    found = session.get(WebChallenge, code)
    assert found is not None  # a foreign key
    return found
