"""Records of finished games for anyone to replay and check, without what they could still give away."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from sqlalchemy.orm import Session

from hotdice.game.record import Record, time_text
from hotdice.web import clock
from hotdice.web.errors import Conflict
from hotdice.web.services.games import find
from hotdice.web.services.reveal import revealed_at

__all__ = ["public_record"]


def public_record(session: Session, game_id: str, now: datetime | None = None) -> Record:
    """The record of a game that is over, or that its key's reveal ended; its dice key is left out while it
    would reveal dice others have yet to play (a daily's until its day is over, a challenge's until it
    closes), and once given, the record says when it was revealed."""
    row = find(session, game_id)
    revealed = revealed_at(session, row)
    if revealed is None or (now or clock.now()) < revealed:
        if not row.over:
            raise Conflict.said("error.record_after")
        return dataclasses.replace(Record.from_json(row.record), seed=None)
    return dataclasses.replace(Record.from_json(row.record), revealed_at=time_text(revealed))
