"""Rematch: after a finished game, the same kind of game with the same players and the same rules string, the
first seat passed to the next player (``POST /api/games/{id}/rematch``).

- A game of one device (solo, race, versus, together, score pad): a new game of the same seats (names, the
  computer and its level), starting with the seat after the one that started (no roll-off: the turn order
  says who starts).
- A friend challenge: "challenge back", a new challenge on the same preset, made by the one who asks.
- An online table: a new table on the same rules, hosted by the first who asks; everyone keeps their name
  of the old game; every other seated player who
  asks takes a seat there (they accept the offer), and the host starts it with those who did: the others'
  seats are simply not taken. Its game seats them in the old game's order, whatever order they accepted in,
  and starts with the one after the old game's first, or the next one round who accepted
  (:func:`hotdice.web.services.tables.start`). No roll-off, even after a game that had one: the first seat
  passes on from the one who won it.
- The daily has no rematch: one official attempt a day (its page offers another, unofficial, attempt).

The rematch is written into the finished game's ``extra`` (under a hold on its row, :func:`hotdice.web.db.hold`),
so a second ask, a double tap or another player's, finds it: 409 with that same rematch, never a second one.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from hotdice.game.rules import Rules
from hotdice.play.modes import Mode, Setup, pad, race, shown_rules, solo, together, versus
from hotdice.store.web_models import WebChallenge, WebGame, WebPlayer
from hotdice.web.db import hold
from hotdice.web.errors import Conflict, Forbidden
from hotdice.web.services import challenges, tables
from hotdice.web.services.games import ONLINE, find, new_game_row, stored_seats

__all__ = ["rematch"]


def _players(row: WebGame) -> list[str | None]:
    """The player id of each human seat (the owner's device for a seat without one), None for the computer."""
    return [str(s.player or row.owner_id) if s.human else None for s in stored_seats(row.seats)]


def _setup(mode: str, rules: Rules, names: list[str], first: int) -> Setup:
    match mode:
        case Mode.SOLO:
            return solo(rules, names[0])
        case Mode.RACE:
            return race(rules, names[0])
        case Mode.VERSUS:
            return versus(rules, names[0], names[1], computer_starts=first == 1)
        case Mode.PAD:
            return pad(rules, names, first=first)
        case _:
            return together(rules, names, first=first)


def _seated_as(row: WebGame, player_id: str) -> tuple[str, bool]:
    """The name the player had in the finished game, and whether it was a default one (worded where shown)."""
    seat = _players(row).index(player_id)
    return json.loads(row.record)["players"][seat], stored_seats(row.seats)[seat].name is not None


def _made(session: Session, row: WebGame, player: WebPlayer) -> dict[str, Any]:
    record = json.loads(row.record)
    if row.mode == Mode.CHALLENGE:
        assert row.challenge_code is not None
        old = session.get(WebChallenge, row.challenge_code)
        assert old is not None
        made = challenges.create(session, player, old.preset)
        return {"kind": "challenge", "id": made.code, "url": f"/c/{made.code}"}
    if row.mode == ONLINE:
        name, unnamed = _seated_as(row, player.id)
        table = tables.create(session, player, shown_rules(record["rules"]), name="" if unnamed else name)
        session.flush()
        return {"kind": "table", "id": table.code, "url": f"/t/{table.code}"}
    names = list(record["players"])
    first = (int(record["first"]) + 1) % len(names)
    setup = _setup(row.mode, Rules.parse(shown_rules(record["rules"])), names, first)
    new = new_game_row(setup, player, stored_seats(row.seats))
    session.add(new)
    session.flush()
    return {"kind": "game", "id": new.id, "url": f"/play/{new.id}"}


def rematch(session: Session, game_id: str, player: WebPlayer) -> tuple[dict[str, Any], bool]:
    """The rematch of ``game_id`` (a new game, challenge or table), made once, and whether it was made before
    (a seated player of an online table then takes a seat at its new table); refused with 409 while the game
    goes on and for a daily."""
    find(session, game_id)  # 404 for no such game
    hold(session, WebGame, game_id)
    row = session.get(WebGame, game_id, populate_existing=True)
    assert row is not None
    if player.id not in _players(row):
        raise Forbidden.said("error.rematch_not_yours")
    if row.mode == Mode.DAILY:
        raise Conflict.said("error.rematch_daily")
    if not row.over:
        raise Conflict.said("error.rematch_not_over")
    extra = json.loads(row.extra)
    found = extra.get("rematch")
    if found is not None:
        if found["kind"] == "table":  # accepting the offer: a seat at the new table, under the name of the old
            name, unnamed = _seated_as(row, player.id)
            tables.join(session, found["id"], player, name, unnamed=unnamed)
        return found, True
    made = _made(session, row, player)
    row.extra = json.dumps({**extra, "rematch": made})
    session.flush()
    return made, False
