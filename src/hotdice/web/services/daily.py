"""The daily game on the server: today's ten turns (UTC), one official attempt per player, the leaderboard,
and the computer's score on the same dice (par), shown to a player once they have finished.

The day's dice key is HMAC(server key, day) (:func:`hotdice.play.daily.daily_seed`). The server key is
``HOTDICE_DAILY_KEY`` or, when that is not set, a random key the server makes once and keeps in its
database: the public offline default would let anyone compute the day's dice.

Provable fairness: from the moment a day opens, its commitment SHA-256(day's dice key) is public; once the
day is over (UTC) the day's key itself is revealed — never the server key, which would give away the days
to come. With both, ``hotdice verify`` checks any record of that day (:mod:`hotdice.game.verify`). The reveal ends
the day's play: an attempt not finished by midnight ends there, unfinished (:mod:`hotdice.web.services.reveal`).
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hotdice.game.verify import commitment_of
from hotdice.play.daily import daily_day, daily_seed
from hotdice.play.modes import Mode, Result, daily
from hotdice.play.players import make_player, play_game
from hotdice.play.ranking import Ranked, compare
from hotdice.store.web_models import WebDailyPar, WebGame, WebPlayer
from hotdice.web import clock
from hotdice.web.db import hold
from hotdice.web.errors import Conflict
from hotdice.web.services.games import computer_spec, human_seat, new_game_row, own_name, player_name
from hotdice.web.services.keys import kept_key
from hotdice.web.services.reveal import day_revealed_at
from hotdice.web.settings import Settings

__all__ = ["PAR_LEVEL", "daily_key", "day_key", "leaderboard", "page", "par", "start"]

PAR_LEVEL = "hard"
_KEY = "daily-key"


def daily_key(session: Session, settings: Settings) -> bytes:
    return settings.daily_key if settings.daily_key is not None else kept_key(session, _KEY)


def _noon(day: date) -> datetime:
    return datetime.combine(day, time(12), tzinfo=UTC)


def day_key(session: Session, settings: Settings, day: date, now: datetime | None = None) -> dict[str, Any]:
    """The commitment to ``day``'s dice key, from the day it opens; the key itself once that day is over."""
    today = daily_day(now or clock.now())
    if day > today:
        raise Conflict.said("error.daily_not_open", day=day.isoformat())
    key = daily_seed(day, daily_key(session, settings))
    return {
        "day": day.isoformat(),
        "commitment": commitment_of(key),
        "key": key.hex() if day < today else None,
        "revealed_at": day_revealed_at(day).isoformat(),
    }


def _attempts(session: Session, player: WebPlayer, day: date) -> list[WebGame]:
    query = (
        select(WebGame)
        .where(WebGame.owner_id == player.id, WebGame.mode == Mode.DAILY, WebGame.day == day)
        .order_by(WebGame.created_at, WebGame.id)
    )
    return list(session.scalars(query))


def start(session: Session, settings: Settings, player: WebPlayer, now: datetime | None = None) -> WebGame:
    """Today's attempt of ``player``: the unfinished one if any, else a new one, official if it is the first."""
    day = daily_day(now or clock.now())
    hold(session, WebPlayer, player.id)  # the player's starts one at a time: each sees the attempt made before
    attempts = _attempts(session, player, day)
    for attempt in attempts:
        if not attempt.over:
            return attempt
    name, default = own_name(player)
    setup = daily(name, now=_noon(day), key=daily_key(session, settings))
    official = not attempts
    row = new_game_row(setup, player, [human_seat(default=default)], day=day, official=official,
                       official_day=day if official else None)
    session.add(row)
    session.flush()
    return row


def par(session: Session, settings: Settings, day: date) -> int:
    """The computer's score on the day's dice, computed once (the computer sees only what a player sees)."""
    found = session.get(WebDailyPar, day)
    if found is not None:
        return found.score
    spec = computer_spec(PAR_LEVEL)
    setup = daily("Computer", now=_noon(day), key=daily_key(session, settings))
    assert setup.dice is not None
    play_game(setup.game, [make_player(spec, random.Random(day.isoformat()))], setup.dice)
    score = setup.game.scores[0]
    try:
        with session.begin_nested():
            session.add(WebDailyPar(day=day, player=spec, score=score))
    except IntegrityError:  # computed at the same time elsewhere: the same dice give the same score
        pass
    return score


def leaderboard(session: Session, day: date, now: datetime | None = None) -> list[tuple[Ranked, WebGame]]:
    """The day's official results, ranked, with their games: the finished ones, then, once the day's key is
    revealed (at ``now``), the attempts it ended unfinished."""
    revealed = (now or clock.now()) >= day_revealed_at(day)
    query = select(WebGame).where(WebGame.mode == Mode.DAILY, WebGame.official_day == day)
    official = list(session.scalars(query if revealed else query.where(WebGame.over.is_(True))))
    results = [(Result(player_name(g)[0], g.score, g.turns, Mode.DAILY, finished=g.over), g) for g in official]
    game_of = {id(result): g for result, g in results}
    return [(r, game_of[id(r.result)]) for r in compare(result for result, _ in results)]


def page(session: Session, settings: Settings, player: WebPlayer | None, now: datetime | None = None,
         day: date | None = None) -> dict[str, Any]:
    """The day (today, or a past ``day``), the player's attempts, the leaderboard of official results, and par
    once they have finished."""
    today = daily_day(now or clock.now())
    if day is not None and day > today:
        raise Conflict.said("error.daily_not_open", day=day.isoformat())
    day = today if day is None else day
    mine = _attempts(session, player, day) if player is not None else []
    finished = [a for a in mine if a.over]
    return {
        "day": day.isoformat(),
        "attempts": [
            {"id": a.id, "score": a.score, "turns": a.turns, "official": a.official, "over": a.over} for a in mine
        ],
        "playing": next((a.id for a in mine if not a.over), None),
        "leaderboard": [
            {
                "rank": r.rank,
                "name": r.result.name,
                "default": player_name(game)[1],  # a name nobody chose: the page words it
                "score": r.result.score,
                "finished": r.result.finished,
                "you": player is not None and game.owner_id == player.id,
            }
            for r, game in leaderboard(session, day, now)
        ],
        "par": par(session, settings, day) if finished else None,
        "today_key": day_key(session, settings, day, now),
        "yesterday_key": day_key(session, settings, day - timedelta(days=1), now),
    }
