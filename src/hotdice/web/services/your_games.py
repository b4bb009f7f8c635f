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
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import BindParameter, Row, Select, bindparam, exists, select, union_all
from sqlalchemy.orm import Session

from hotdice.game.variants import find_variant
from hotdice.play.daily import daily_day
from hotdice.play.modes import Mode, shown_rules, ten_turn_rules
from hotdice.store.web_models import WebChallenge, WebChallengeSeen, WebGame, WebPlayer, WebTableSeat
from hotdice.web import clock
from hotdice.web.services.games import ONLINE, REBUILT, Loaded, StoredSeat, load, remember

__all__ = ["IN_PROGRESS_CAP", "your_games"]

IN_PROGRESS_CAP = 50  # the latest unfinished games (and challenges received) shown: older ones are at their address
# Replayed to know whose turn it is (online) or whether their revealed dice key ended them (daily, challenge);
# a game of one device is always its device's turn, and never ends unfinished.
_REPLAYED = frozenset({ONLINE, Mode.DAILY, Mode.CHALLENGE})

# The statements are built once, their values bound at each ask: building one cost more than the database's
# answer to it. Each list is two selects joined (UNION ALL) and ordered by the database: the games the player
# made (from ix_web_games_owner_over_updated: "over = ", not "over IS", which PostgreSQL cannot look up) and
# the games of others' online tables where they hold a seat. One OR of the two kept SQLite from reading the
# index in order and PostgreSQL from using it at all.
_PLAYER: BindParameter[str] = bindparam("player_id")
_COLUMNS = (WebGame.id, WebGame.mode, WebGame.owner_id, WebGame.record, WebGame.seats, WebGame.over,
            WebGame.score, WebGame.day, WebGame.challenge_code, WebGame.table_code, WebGame.updated_at)


def _mine(over: bool, *columns: Any, upto: int | BindParameter[int]) -> Select[Any]:
    """The player's finished (``over``) or unfinished games, their ``columns``, the latest first: made by them, or
    seated at others' online tables; ``upto`` the most of either that a page can reach (the offset and limit)."""
    made = select(*columns).where(WebGame.owner_id == _PLAYER, WebGame.over == over)
    # A table has one game (hotdice.web.services.tables.start), which holds its code (indexed): the tables the
    # player sits at are looked up there, not joined (SQLite, without statistics, would read every game first).
    tables = select(WebTableSeat.table_code).where(WebTableSeat.player_id == _PLAYER)
    seated = select(*columns).where(WebGame.table_code.in_(tables), WebGame.owner_id != _PLAYER, WebGame.over == over)
    if not over:  # training counts nowhere
        made, seated = made.where(WebGame.mode != Mode.TRAINING), seated.where(WebGame.mode != Mode.TRAINING)
    # Each limited on its own: PostgreSQL then walks the index backwards for the first pages, rather than sort all.
    latest = WebGame.updated_at.desc(), WebGame.id
    both = union_all(*(select(*q.order_by(*latest).limit(upto).subquery().c) for q in (made, seated))).subquery()
    return select(*both.c).order_by(both.c.updated_at.desc(), both.c.id)


_UNFINISHED = _mine(False, *_COLUMNS, upto=IN_PROGRESS_CAP).limit(IN_PROGRESS_CAP)
# A page of finished games: its keys first (id, time), then only its rows read whole: the records, a few kB each,
# are not carried through the ordering and the offset.
_KEYS = (
    _mine(True, WebGame.id, WebGame.updated_at, upto=bindparam("upto"))
    .limit(bindparam("limit")).offset(bindparam("offset")).subquery()
)
_PLAYED_TODAY = exists().where(WebGame.owner_id == _PLAYER, WebGame.official_day == bindparam("today"))
# Whether today's daily is played rides on each row of the page (worked out once): one statement fewer.
_PAGE = (
    select(*_COLUMNS, _PLAYED_TODAY.label("played_today"))
    .join(_KEYS, _KEYS.c.id == WebGame.id).order_by(WebGame.updated_at.desc(), WebGame.id)
)
_PLAYED_TODAY_ALONE = select(_PLAYED_TODAY)  # for an empty page
_shown_rules = functools.lru_cache(maxsize=256)(shown_rules)  # a player's games share a few rules strings
_Row = Row[*tuple[Any, ...]]  # one game's _COLUMNS


def _seats_of(row: _Row, player_id: str) -> list[int]:
    seats = (StoredSeat.from_json(seat) for seat in orjson.loads(row.seats))
    return [i for i, s in enumerate(seats) if s.human and (s.player or row.owner_id) == player_id]


def _replayed(session: Session, row: _Row) -> Loaded:
    """The game rebuilt: an online game as this process keeps it at this very record, without reading its row
    again; else loaded (a daily's or a challenge's reveal worked out) and, only read, kept for its next move."""
    held = REBUILT.get(row.id) if row.mode == ONLINE else None
    if held is not None and held.row.record == row.record:
        return held
    loaded = load(session, row.id)
    remember(loaded)
    return loaded


def _aware(at: datetime) -> datetime:
    """A stored time with its zone: UTC, which SQLite gives back without it."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _entry(row: _Row, record: dict[str, Any], player_id: str) -> dict[str, Any]:
    seats = _seats_of(row, player_id)
    scores = record["result"]["scores"]
    return {
        "id": row.id,
        "url": f"/t/{row.table_code}" if row.table_code else f"/play/{row.id}",
        "mode": row.mode,
        "rules": _shown_rules(record["rules"]),
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


def _finished(row: _Row, player_id: str) -> dict[str, Any]:
    record = orjson.loads(row.record)
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
    waiting: list[dict[str, Any]] = []
    in_progress: list[dict[str, Any]] = []
    for row in session.execute(_UNFINISHED, {"player_id": player.id}):
        entry = _entry(row, orjson.loads(row.record), player.id) | {"your_turn": True, "result": None}
        if row.mode in _REPLAYED:
            loaded = _replayed(session, row)
            if loaded.ended(now):
                continue
            entry["your_turn"] = loaded.game.current in entry["you"]
        (waiting if entry["your_turn"] and row.mode == ONLINE else in_progress).append(entry)
    waiting = sorted(waiting + _received(session, player.id, now), key=lambda e: e["updated_at"], reverse=True)
    asked = {"player_id": player.id, "offset": offset, "limit": limit + 1, "upto": offset + limit + 1, "today": today}
    page = session.execute(_PAGE, asked).all()
    played_today = page[0].played_today if page else session.scalar(_PLAYED_TODAY_ALONE, asked)
    return {
        "waiting": waiting,
        "in_progress": in_progress,
        "finished": [_finished(row, player.id) for row in page[:limit]],
        "daily_to_play": None if played_today else today.isoformat(),
        "next_offset": offset + limit if len(page) > limit else None,
    }
