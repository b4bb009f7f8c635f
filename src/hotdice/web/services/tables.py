"""Online tables: a host picks the rules and gets a code; 2 to 8 people join from their own devices; the
host starts the game. Each seat is played from its own device (its cookie): a player who drops rejoins
by opening the table again. Anyone else who opens it watches.

A rematch's table (:mod:`hotdice.web.services.rematch`) starts its game with the players of the old one who
took their seat again, in the old game's order (anyone else seated after them), and the first seat passed on:
the player after the one who started the old game, or, if they did not accept, the next one who did.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hotdice.game.engine import MAX_PLAYERS
from hotdice.game.rules import Rules, RulesError
from hotdice.i18n import LANGUAGES, catalog
from hotdice.play.codes import ALPHABET
from hotdice.play.modes import together
from hotdice.play.names import DefaultName, read_as
from hotdice.store.web_models import WebGame, WebPlayer, WebTable, WebTableSeat
from hotdice.web.db import hold
from hotdice.web.errors import BadRequest, Conflict, Forbidden, NotFound
from hotdice.web.services.bots import bot_ids
from hotdice.web.services.games import ONLINE, human_seat, new_game_row, stored_seats
from hotdice.web.services.players import clean_name

__all__ = ["CODE_LENGTH", "create", "find", "join", "parse_code", "start", "state", "version"]

CODE_LENGTH = 6  # 30 bits of Crockford base 32: easy to read out across a room
_READ = str.maketrans({"I": "1", "L": "1", "O": "0"})


def parse_code(text: str) -> str:
    code = "".join(ch for ch in text.upper() if ch not in "- \t").translate(_READ)
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        raise BadRequest.said("error.table_code", length=CODE_LENGTH)
    return code


def find(session: Session, code: str) -> WebTable:
    found = session.get(WebTable, parse_code(code))
    if found is None:
        raise NotFound.said("error.no_table", code=parse_code(code))
    return found


def _seats(session: Session, code: str) -> list[WebTableSeat]:
    query = select(WebTableSeat).where(WebTableSeat.table_code == code).order_by(WebTableSeat.seat)
    return list(session.scalars(query))


def create(session: Session, host: WebPlayer, rules: str | None = None, roll_off: bool = False,
           name: str | None = None) -> WebTable:
    """A new table, the host seated first under ``name`` (their own by default; "": none chosen)."""
    try:
        table_rules = str(Rules.parse(rules if rules is not None else host.rules))
    except RulesError as exc:
        raise BadRequest(f"bad rules: {exc}", because=exc) from None
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with session.begin_nested():
                table = WebTable(code=code, host_id=host.id, rules=table_rules, roll_off=roll_off)
                session.add(table)
                session.flush()
                session.add(WebTableSeat(table_code=code, seat=0, player_id=host.id,
                                        name=host.name if name is None else name))
            return table
        except IntegrityError:  # pragma: no cover - a code already in use
            continue


def _held(session: Session, code: str) -> WebTable:
    """The table, held until the transaction ends: joins and starts of one table go one at a time, each
    seeing the seats and the game of the one before (:func:`hotdice.web.db.hold`)."""
    hold(session, WebTable, parse_code(code))
    return find(session, code)


def join(session: Session, code: str, player: WebPlayer, name: str | None = None, *, unnamed: bool = False) -> WebTable:
    """Take a seat (again: rejoining keeps one's seat) while the host has not started; ``unnamed``: for one who
    chose no name, "Player n" by the seat (the table keeps one seat without a name: its host's)."""
    table = _held(session, code)
    seats = _seats(session, table.code)
    if any(s.player_id == player.id for s in seats):
        return table
    if table.game_id is not None:
        raise Conflict.said("error.table_started")
    if len(seats) >= MAX_PLAYERS:
        raise Conflict.said("error.table_full", max=MAX_PLAYERS)
    seated = DefaultName("player", len(seats) + 1).english() if unnamed else clean_name(
        name if name is not None else player.name)
    if read_as(seated) in {read_as(shown) for s in seats for shown in _shown(s)}:
        raise Conflict.said("error.name_taken", name=seated)
    session.add(WebTableSeat(table_code=table.code, seat=len(seats), player_id=player.id, name=seated))
    session.flush()
    return table


def _shown(seat: WebTableSeat) -> list[str]:
    """The names a seat is shown under: the one chosen, or for a seat nobody named every wording of its
    default name (the lobby's "Player", the game's "Player 1", in each language)."""
    if seat.name:
        return [seat.name]
    n = seat.seat + 1
    return [DefaultName("player", n).english()] + [
        word for lang in LANGUAGES for word in (catalog(lang)["home.default_name"],
                                                catalog(lang)["home.player_n"].format(n=n))]


def _rematch_of(session: Session, table: WebTable) -> WebGame | None:
    """The finished online game whose rematch ``table`` is: one of its host's (who asked for it), whose
    ``extra`` names the table (as the rematch writes it); None for a table made afresh."""
    hosted = (
        select(WebTable.game_id)
        .join(WebTableSeat, WebTableSeat.table_code == WebTable.code)
        .where(WebTableSeat.player_id == table.host_id, WebTable.game_id.is_not(None))
    )
    candidates = session.scalars(
        select(WebGame).where(WebGame.id.in_(hosted), WebGame.over.is_(True),
                              WebGame.extra.contains(f'"/t/{table.code}"', autoescape=True))
    )
    return next((g for g in candidates if json.loads(g.extra).get("rematch", {}).get("id") == table.code), None)


def _turn_order(session: Session, table: WebTable, seats: list[WebTableSeat]) -> tuple[list[WebTableSeat], int]:
    """The seats in the game's order, and the one who starts: for a rematch, the old game's players in their old
    order and the next one after its first (round that order) among them; else as they sat, the host first."""
    old = _rematch_of(session, table)
    if old is None:
        return seats, 0
    place = {s.player: n for n, s in enumerate(stored_seats(old.seats))}  # an online seat names its player
    ordered = sorted(seats, key=lambda s: place.get(s.player_id, len(place) + s.seat))  # anyone new after
    first = int(json.loads(old.record)["first"])
    back = [k for k, s in enumerate(ordered) if s.player_id in place]  # the host at least: they asked
    return ordered, min(back, key=lambda k: (place[ordered[k].player_id] - first - 1) % len(place))


def start(session: Session, code: str, player: WebPlayer) -> WebTable:
    """The game of the table's seats, made once: a repeated start answers with it."""
    table = _held(session, code)
    if table.host_id != player.id:
        raise Forbidden.said("error.host_starts")
    if table.game_id is not None:
        return table
    seats = _seats(session, table.code)
    if len(seats) < 2:
        raise Conflict.said("error.table_alone")
    seats, first = _turn_order(session, table, seats)
    host = session.get(WebPlayer, table.host_id)
    assert host is not None
    # A seat of a host who chose no name is stored without one: the game names it "Player n", worded when shown.
    defaults = [None if s.name else DefaultName("player", s.seat + 1) for s in seats]
    names = [s.name if d is None else d.english() for s, d in zip(seats, defaults, strict=True)]
    setup = together(Rules.parse(table.rules), names, hold_roll_off=table.roll_off, first=first)
    robots = bot_ids(session, [s.player_id for s in seats])
    played = [human_seat(s.player_id, d, bot=s.player_id in robots) for s, d in zip(seats, defaults, strict=True)]
    row = new_game_row(setup, host, played, mode=ONLINE, table_code=table.code)
    session.add(row)
    session.flush()
    table.game_id = row.id
    return table


def version(session: Session, code: str) -> tuple[int, str | None]:
    """What moves whenever the lobby changes: the number of seats taken, and the game once started."""
    table = find(session, code)
    seats = session.scalar(select(func.count()).where(WebTableSeat.table_code == table.code)) or 0
    return seats, table.game_id


def state(session: Session, code: str, viewer: WebPlayer | None) -> dict[str, Any]:
    table = find(session, code)
    seats = _seats(session, table.code)
    viewer_id = None if viewer is None else viewer.id
    robots = bot_ids(session, [s.player_id for s in seats])
    return {
        "code": table.code,
        "rules": table.rules,
        "roll_off": table.roll_off,
        "host": next((s.name for s in seats if s.player_id == table.host_id), ""),  # "": no name chosen
        "you_host": table.host_id == viewer_id,
        "seated": any(s.player_id == viewer_id for s in seats),
        "seats": [{"name": s.name, "you": s.player_id == viewer_id, "bot": s.player_id in robots} for s in seats],
        "game": table.game_id,
        "full": len(seats) >= MAX_PLAYERS,
    }
