"""The review of a finished game (:func:`hotdice.analysis.game_review.game_review`) for the API and the review page.

A finished game's record never changes, so its review is computed once per process and kept (by the record's
digest). Nothing is solved here: where the game's measure needs a table the background solver is still working
out, the answer is a 409 that says how far it is (the page asks again).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.analysis.coach import measure_now
from hotdice.analysis.game_review import BEST_TOLERANCE, GameReview, exercises, game_review
from hotdice.game.engine import InvalidMoveError
from hotdice.game.record import Record, RecordError, replay
from hotdice.store.web_models import WebGame
from hotdice.web.errors import BadRequest, Conflict, NotFound, WebError
from hotdice.web.services.games import stored_seats
from hotdice.web.services.records import public_record

__all__ = ["check_mistake", "mistakes", "review_json", "review_of"]

KEPT = 256  # reviews kept per process (a few hundred kB each at most)
_kept: OrderedDict[str, tuple[GameReview, bytes]] = OrderedDict()
_lock = threading.Lock()


def review_of(session: Session, game_id: str) -> tuple[GameReview, bytes]:
    """The review of game ``game_id`` and its JSON text, once the game (a daily's or a challenge's attempt) is over;
    409 before, or while the table its measure needs is being solved."""
    try:
        record = public_record(session, game_id)
    except Conflict:  # not over yet: said of the review (the record's own refusal speaks of the record)
        raise Conflict.said("error.review_after") from None
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


RECENT = 20  # the finished games whose mistakes Training offers again


def mistakes(session: Session, player_id: str | None) -> list[dict[str, Any]]:
    """"Learn from your mistakes": the mistakes and blunders of the device's player in their last finished games,
    as exercises (without their answers); games whose review is still being prepared are left out for now."""
    if player_id is None:
        return []
    rows = session.execute(select(WebGame.id, WebGame.seats).where(WebGame.owner_id == player_id, WebGame.over)
                           .order_by(WebGame.updated_at.desc()).limit(RECENT)).all()
    out = []
    for game_id, seats in rows:
        mine = [k for k, seat in enumerate(stored_seats(seats)) if seat.human and seat.player in (None, player_id)]
        try:
            review = review_of(session, game_id)[0]
        except WebError:
            continue
        out += [{"game": game_id, **e.as_json()} for e in exercises(review, mine)]
    return out


def check_mistake(session: Session, game_id: str, step: int, answer: str) -> dict[str, Any]:
    """The answer to an exercise, checked against the exact values of its game's review: right when it loses
    nothing against the best play; the exercise with every choice's value and the best one."""
    review = review_of(session, game_id)[0]
    found = next((e for e in exercises(review, range(len(review.players))) if e.step == step), None)
    if found is None:
        raise NotFound.said("error.no_exercise")
    try:
        chosen = found.check(answer)
    except (ValueError, InvalidMoveError) as exc:
        raise BadRequest.said("error.not_a_choice") from exc
    return {"correct": chosen.loss <= BEST_TOLERANCE, "loss": round(chosen.loss, 6), "answer": chosen.decision,
            "exercise": found.as_json(answered=True)}
