"""The review of a finished game (:func:`hotdice.analysis.game_review.game_review`) for the API and the review page.

A finished game's record never changes, so its review is computed once per process and kept (by the record's
digest). Nothing is solved here: where the game's measure needs a table the background solver is still working
out, the answer is a 409 that says how far it is (the page asks again).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy.orm import Session

from hotdice.analysis.coach import measure_now
from hotdice.analysis.game_review import GameReview, game_review
from hotdice.game.record import Record, RecordError, replay
from hotdice.web.errors import Conflict
from hotdice.web.services.records import public_record

__all__ = ["review_json", "review_of"]

KEPT = 256  # reviews kept per process (a few hundred kB each at most)
_kept: OrderedDict[str, tuple[GameReview, bytes]] = OrderedDict()
_lock = threading.Lock()


def review_of(session: Session, game_id: str) -> tuple[GameReview, bytes]:
    """The review of game ``game_id`` and its JSON text, once the game (a daily's or a challenge's attempt) is over;
    409 before, or while the table its measure needs is being solved."""
    record = public_record(session, game_id)
    return _reviewed(record)


def review_json(session: Session, game_id: str) -> bytes:
    return review_of(session, game_id)[1]


def _reviewed(record: Record) -> tuple[GameReview, bytes]:
    key = record.digest
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    try:
        game = replay(record)
    except RecordError as exc:  # a stored record always replays; said rather than a 500 if one ever did not
        raise Conflict(str(exc)) from None
    measure, status = measure_now(game.root())
    if status is not None and status.state in ("queued", "solving"):
        raise Conflict.said("error.review_preparing", percent=round(100 * status.progress))
    review = game_review(game, measure)
    made = (review, review.json_text().encode())
    with _lock:
        _kept[key] = made
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return made
