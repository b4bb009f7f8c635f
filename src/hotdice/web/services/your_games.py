"""A player's games, for the home page and ``GET /api/me/games``: waiting for you (online tables where it is
your turn, today's daily not yet played), in progress (every mode, to resume), finished (the latest first,
paged: players with a thousand games ask one page at a time).

A game is the player's when they made it (``owner_id``: every mode but the seats of others' online tables) or
hold a seat of its online table. A finished game's result is read from its record's ``result`` (no replay); an
unfinished one is replayed to know whose turn it is, and one whose dice key is revealed (a past daily, a
closed challenge) has ended unfinished: it is in neither list.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from hotdice.play.daily import daily_day
from hotdice.play.modes import Mode, shown_rules
from hotdice.store.web_models import WebGame, WebPlayer, WebTable, WebTableSeat
from hotdice.web import clock
from hotdice.web.services.games import ONLINE, load

__all__ = ["IN_PROGRESS_CAP", "your_games"]

IN_PROGRESS_CAP = 50  # the latest unfinished games shown: older ones are still at their address


def _mine(player_id: str) -> Any:
    seated = (
        select(WebTable.game_id)
        .join(WebTableSeat, WebTableSeat.table_code == WebTable.code)
        .where(WebTableSeat.player_id == player_id, WebTable.game_id.is_not(None))
    )
    return select(WebGame).where(or_(WebGame.owner_id == player_id, WebGame.id.in_(seated)))


def _seats_of(row: WebGame, player_id: str) -> list[int]:
    seats = json.loads(row.seats)
    return [i for i, s in enumerate(seats) if s["kind"] == "human" and (s.get("player") or row.owner_id) == player_id]


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
        "updated_at": row.updated_at,
    }


def _finished(row: WebGame, player_id: str) -> dict[str, Any]:
    record = json.loads(row.record)
    entry = _entry(row, record, player_id)
    winners = record["result"]["winners"] or []
    many = len(record["players"]) > 1
    won = any(seat in winners for seat in entry["you"])
    entry |= {"your_turn": False, "result": ("won" if won else "lost") if many else None}
    return entry


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
        loaded = load(session, row.id)
        if loaded.ended(now):
            continue
        entry = _entry(row, json.loads(row.record), player.id)
        game = loaded.game
        entry |= {"your_turn": game.outcome is None and game.current in entry["you"], "result": None}
        (waiting if entry["your_turn"] and row.mode == ONLINE else in_progress).append(entry)
    latest = mine.where(WebGame.over.is_(True)).order_by(WebGame.updated_at.desc(), WebGame.id)
    rows = list(session.scalars(latest.offset(offset).limit(limit + 1)))
    played_today = session.scalar(
        select(WebGame.id).where(WebGame.owner_id == player.id, WebGame.official_day == today)
    ) is not None
    return {
        "waiting": waiting,
        "in_progress": in_progress,
        "finished": [_finished(row, player.id) for row in rows[:limit]],
        "daily_to_play": None if played_today else today.isoformat(),
        "next_offset": offset + limit if len(rows) > limit else None,
    }
