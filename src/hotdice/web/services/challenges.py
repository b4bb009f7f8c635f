"""Friend challenges on the server: create one (a link and a short code), play its ten turns, compare.

The code is a :class:`hotdice.play.modes.Challenge` code (preset, typo check). Its dice, though, come from a
random key the server keeps for the challenge and reveals only once it closes: a code passed around must
not let anyone compute the dice in advance. Its commitment, SHA-256 of the key, is public from the start, so
that once the key is revealed anyone can check it was fixed before the first attempt (``hotdice verify``).
Everyone who opens the challenge plays the same dice; one attempt each (a challenge opened and not played waits
for its player in their games: :func:`opened`); a challenge closes after
:data:`OPEN_DAYS` days, or earlier when its creator closes it. Closing stops new attempts; those under way go
on until they finish or until the grace deadline (:data:`hotdice.web.services.reveal.GRACE` after the close),
and the key is revealed when the last of them ends or at that deadline, whichever comes first
(:mod:`hotdice.web.services.reveal`): only then does an attempt not finished end, ranked below every finished
one. A creator who has finished cannot cut the others off.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hotdice.game.dice import SeededDice
from hotdice.game.record import Record, replay
from hotdice.game.variants import VARIANTS
from hotdice.game.verify import commitment_of
from hotdice.play.modes import Challenge, Mode, Result, challenge
from hotdice.play.ranking import compare, turn_points
from hotdice.store.web_models import WebChallenge, WebChallengeSeen, WebGame, WebPlayer
from hotdice.web import clock
from hotdice.web.db import hold
from hotdice.web.errors import BadRequest, Conflict, Forbidden, NotFound
from hotdice.web.services.games import human_seat, new_game_row, own_name, player_name
from hotdice.web.services.reveal import GRACE, aware, challenge_revealed_at

__all__ = ["OPEN_DAYS", "close", "commitment", "create", "find", "is_closed", "opened", "play", "results"]

OPEN_DAYS = 7


def is_closed(found: WebChallenge, now: datetime | None = None) -> bool:
    return (now or clock.now()) >= aware(found.closes_at)


def create(session: Session, player: WebPlayer, preset: str = "farkle") -> WebChallenge:
    if preset not in [v.name for v in VARIANTS]:
        raise BadRequest.said("error.unknown_preset", preset=preset, presets=", ".join(v.name for v in VARIANTS))
    now = clock.now()
    while True:
        found = WebChallenge(
            code=Challenge.new(preset).code,
            preset=preset,
            dice_key=secrets.token_hex(32),
            creator_id=player.id,
            created_at=now,
            closes_at=now + timedelta(days=OPEN_DAYS),
        )
        try:
            with session.begin_nested():
                session.add(found)
            return found
        except IntegrityError:  # pragma: no cover - two equal 40-bit codes
            continue


def commitment(found: WebChallenge) -> str:
    """SHA-256 of the challenge's dice key: shown from its creation, the key itself only once it closes."""
    return commitment_of(bytes.fromhex(found.dice_key))


def find(session: Session, code: str) -> WebChallenge:
    try:
        parsed = Challenge.parse(code[:40])
    except ValueError as exc:
        raise BadRequest(str(exc), because=exc) from None
    found = session.get(WebChallenge, parsed.code)
    if found is None:
        raise NotFound.said("error.no_challenge", code=parsed.code)
    return found


def opened(session: Session, code: str, player: WebPlayer | None) -> None:
    """Note that ``player`` opened another's open challenge: received, it waits for them in their games until
    they play it or it closes. Once per player and challenge: a second look, or two at once, adds nothing."""
    if player is None:  # a device with no player yet has no games to list it in
        return
    found = find(session, code)
    if found.creator_id == player.id or is_closed(found):
        return
    if session.get(WebChallengeSeen, (found.code, player.id)) is not None:
        return
    try:
        with session.begin_nested():
            session.add(WebChallengeSeen(challenge_code=found.code, player_id=player.id, seen_at=clock.now()))
    except IntegrityError:  # the same player's other request noted it first
        pass


def play(session: Session, player: WebPlayer, code: str) -> WebGame:
    """The player's attempt at the challenge: the one they started, or a new one while it is open."""
    found = find(session, code)
    mine = session.scalar(select(WebGame).where(WebGame.challenge_code == found.code, WebGame.owner_id == player.id))
    if mine is not None:
        return mine
    if is_closed(found):
        raise Conflict.said("error.challenge_closed", code=found.code)
    key = bytes.fromhex(found.dice_key)
    name, default = own_name(player)
    setup = dataclasses.replace(challenge(found.code, name), dice=SeededDice(key), seed=key)
    row = new_game_row(setup, player, [human_seat(default=default)], challenge_code=found.code)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # the same player's other request started it first
        again = session.scalar(
            select(WebGame).where(WebGame.challenge_code == found.code, WebGame.owner_id == player.id)
        )
        assert again is not None
        return again
    return row


def close(session: Session, player: WebPlayer, code: str) -> WebChallenge:
    """Close the challenge now: no new attempt; those under way have until the grace deadline, and the key is
    revealed once they have ended. Its row is held first and the time taken after: an action checked meanwhile
    (it holds the row too) was accepted before this moment, or sees the challenge closed."""
    found = find(session, code)
    if found.creator_id != player.id:
        raise Forbidden.said("error.creator_closes")
    hold(session, WebChallenge, found.code)
    session.refresh(found)
    now = clock.now()
    if not is_closed(found, now):
        found.closes_at = now
    return found


def results(session: Session, code: str, player: WebPlayer | None, now: datetime | None = None) -> dict[str, Any]:
    """Everyone who played, ranked: finished attempts, then, once the key is revealed (at ``now``), the
    attempts its reveal ended unfinished; the dice key once it is revealed."""
    found = find(session, code)
    games = list(
        session.scalars(select(WebGame).where(WebGame.challenge_code == found.code).order_by(WebGame.created_at))
    )
    names = {g.id: player_name(g) for g in games}
    at = now or clock.now()
    closed = is_closed(found, at)
    reveal = challenge_revealed_at(session, found.code, aware(found.closes_at), at)
    revealed = at >= reveal
    ranked_games = [g for g in games if g.over or revealed]
    entries = [(Result(names[g.id][0], g.score, g.turns, Mode.CHALLENGE, finished=g.over), g) for g in ranked_games]
    game_of = {id(result): g for result, g in entries}
    ranked = compare(result for result, _ in entries)
    turns = [turn_points(replay(Record.from_json(game_of[id(r.result)].record))) for r in ranked]
    rows = [
        {
            "rank": r.rank,
            "name": r.result.name,
            "score": r.result.score,
            "finished": r.result.finished,
            "you": player is not None and game_of[id(r.result)].owner_id == player.id,
            "turns": points,
        }
        for r, points in zip(ranked, turns, strict=True)
    ]
    mine = next((g for g in games if player is not None and g.owner_id == player.id), None)
    return {
        "code": found.code,
        "preset": found.preset,
        "closed": closed,
        "closes_at": aware(found.closes_at).isoformat(),
        # Once closed: when the key is revealed (the grace deadline while an attempt is under way) and whether
        # it is, and why: every attempt finished, or the deadline passed.
        "grace_until": (aware(found.closes_at) + GRACE).isoformat() if closed else None,
        "revealed_at": reveal.isoformat() if revealed else None,
        "revealed": revealed,
        "creator": player is not None and found.creator_id == player.id,
        "yours": None if mine is None else {"id": mine.id, "over": mine.over, "score": mine.score},
        "ranking": [
            {**row, "default": names[game_of[id(r.result)].id][1]}  # a name nobody chose: the page words it
            for r, row in zip(ranked, rows, strict=True)
        ],
        # Turn by turn (the same dice each turn): per turn, every ranked player's points and the best of them.
        "by_turn": [
            {"turn": k + 1, "points": [points[k] if k < len(points) else None for points in turns],
             "best": max(points[k] for points in turns if k < len(points))}
            for k in range(max(map(len, turns), default=0))
        ],
        "playing": [
            {"name": names[g.id][0], "default": names[g.id][1], "turns": g.turns}
            for g in games
            if not g.over and not revealed
        ],
        "commitment": commitment(found),
        "dice_key": found.dice_key if revealed else None,
    }
