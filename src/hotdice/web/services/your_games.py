"""A player's games, for the home page and ``GET /api/me/games``: waiting for you (online tables where it is
your turn, friend challenges received and not played, today's daily not yet played), in progress (every mode,
to resume), finished (the latest first, paged: players with a thousand games ask one page at a time).

A game is the player's when they made it (``owner_id``: every mode but the seats of others' online tables) or
hold a seat of its online table. A finished game's result is read from its record's ``result`` (no replay); an
unfinished online game is replayed to know whose turn it is, and a daily or challenge attempt whose dice key is
revealed has ended unfinished: it is in neither list. A friend challenge received (opened, made by someone
else: :func:`hotdice.web.services.challenges.opened`) has no game of the player's yet: it waits, under its
code, while it is open and they have not started it; one query finds them all.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session

from hotdice.game.variants import find_variant
from hotdice.play.daily import daily_day
from hotdice.play.modes import Mode, shown_rules, ten_turn_rules
from hotdice.store.web_models import WebChallenge, WebChallengeSeen, WebGame, WebPlayer, WebTable, WebTableSeat
from hotdice.web import clock
from hotdice.web.services.games import ONLINE, load, stored_seats

__all__ = ["IN_PROGRESS_CAP", "your_games"]

IN_PROGRESS_CAP = 50  # the latest unfinished games (and challenges received) shown: older ones are at their address
# Replayed to know whose turn it is (online) or whether their revealed dice key ended them (daily, challenge);
# a game of one device is always its device's turn, and never ends unfinished.
_REPLAYED = frozenset({ONLINE, Mode.DAILY, Mode.CHALLENGE})


def _mine(player_id: str, *columns: Any) -> Any:
    """The player's games (``columns`` of them, or the rows): made by them, or seated at their online table."""
    seated = (
        select(WebTable.game_id)
        .join(WebTableSeat, WebTableSeat.table_code == WebTable.code)
        .where(WebTableSeat.player_id == player_id, WebTable.game_id.is_not(None))
    )
    return select(*(columns or (WebGame,))).where(or_(WebGame.owner_id == player_id, WebGame.id.in_(seated)))


def _seats_of(row: WebGame, player_id: str) -> list[int]:
    return [i for i, s in enumerate(stored_seats(row.seats)) if s.human and (s.player or row.owner_id) == player_id]


def _aware(at: datetime) -> datetime:
    """A stored time with its zone: UTC, which SQLite gives back without it."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _entry(row: WebGame, record: dict[str, Any], player_id: str) -> dict[str, Any]:
    seats = _seats_of(row, player_id)
    scores = record["result"]["scores"]
    return {
        "id": row.id,
        "url": f"/t/{row.table_code}" if row.table_code else f"/play/{row.id}",
        "mode": row.mode,
        "rules": shown_rules(record["rules"]),
        "players": len(record["players"]),
        "you": seats,
        "score": scores[seats[0]] if seats else row.score,
        "scores": scores,
        "day": row.day.isoformat() if row.day else None,
        "challenge": row.challenge_code,
        "table": row.table_code,
        "updated_at": _aware(row.updated_at),
        "review_url": f"/review/{row.id}" if row.over else None,
    }


def _finished(row: WebGame, player_id: str) -> dict[str, Any]:
    record = json.loads(row.record)
    entry = _entry(row, record, player_id)
    winners = record["result"]["winners"] or []
    many = len(record["players"]) > 1
    won = any(seat in winners for seat in entry["you"])
    entry |= {"your_turn": False, "result": ("won" if won else "lost") if many else None}
    return entry


@functools.cache
def _preset_rules(preset: str) -> str:
    """A challenge preset's rules as its attempts show them (read once: a handful of presets)."""
    return shown_rules(ten_turn_rules(find_variant(preset).rules))


def _received(session: Session, player_id: str, now: datetime) -> list[dict[str, Any]]:
    """The friend challenges the player opened, did not make, has not started, still open: the latest opened
    first. No game yet: the entry is the challenge's (its code for an id, one seat to play, nothing scored)."""
    started = exists().where(WebGame.challenge_code == WebChallenge.code, WebGame.owner_id == player_id)
    found = session.execute(
        select(WebChallenge.code, WebChallenge.preset, WebChallengeSeen.seen_at)
        .join(WebChallengeSeen, WebChallengeSeen.challenge_code == WebChallenge.code)
        .where(WebChallengeSeen.player_id == player_id, WebChallenge.creator_id != player_id,
               WebChallenge.closes_at > now, ~started)
        .order_by(WebChallengeSeen.seen_at.desc(), WebChallenge.code).limit(IN_PROGRESS_CAP)
    )
    return [
        {"id": code, "url": f"/c/{code}", "mode": Mode.CHALLENGE, "rules": _preset_rules(preset),
         "players": 1, "you": [0], "score": 0, "scores": [0], "day": None, "challenge": code, "table": None,
         "updated_at": _aware(seen_at), "your_turn": True, "result": None, "review_url": None}
        for code, preset, seen_at in found
    ]


def your_games(session: Session, player: WebPlayer | None, offset: int = 0, limit: int = 20,
               now: datetime | None = None) -> dict[str, Any]:
    """The three lists (finished: ``limit`` games from ``offset``, the latest first) and today's daily if it
    is still to play."""
    now = now or clock.now()
    today = daily_day(now)
    if player is None:
        return {"waiting": [], "in_progress": [], "finished": [], "daily_to_play": today.isoformat(),
                "next_offset": None}
    mine = _mine(player.id)
    waiting: list[dict[str, Any]] = []
    in_progress: list[dict[str, Any]] = []
    unfinished = session.scalars(
        mine.where(WebGame.over.is_(False), WebGame.mode != Mode.TRAINING)
        .order_by(WebGame.updated_at.desc(), WebGame.id).limit(IN_PROGRESS_CAP)
    )
    for row in unfinished:
        entry = _entry(row, json.loads(row.record), player.id) | {"your_turn": True, "result": None}
        if row.mode in _REPLAYED:
            loaded = load(session, row.id)
            if loaded.ended(now):
                continue
            entry["your_turn"] = loaded.game.current in entry["you"]
        (waiting if entry["your_turn"] and row.mode == ONLINE else in_progress).append(entry)
    waiting = sorted(waiting + _received(session, player.id, now), key=lambda e: e["updated_at"], reverse=True)
    # The page's ids first, sorted without the records (large): then only those rows are read whole.
    latest = _mine(player.id, WebGame.id).where(WebGame.over.is_(True)).order_by(WebGame.updated_at.desc(), WebGame.id)
    page = list(session.scalars(latest.offset(offset).limit(limit + 1)))
    found = {row.id: row for row in session.scalars(select(WebGame).where(WebGame.id.in_(page[:limit])))}
    rows = [found[game_id] for game_id in page if game_id in found]
    played_today = session.scalar(
        select(WebGame.id).where(WebGame.owner_id == player.id, WebGame.official_day == today)
    ) is not None
    return {
        "waiting": waiting,
        "in_progress": in_progress,
        "finished": [_finished(row, player.id) for row in rows],
        "daily_to_play": None if played_today else today.isoformat(),
        "next_offset": offset + limit if len(page) > limit else None,
    }
