"""Games held by the server: create, rebuild, act, let the computer play, advise, and tell what happened.

A game is stored as its record and rebuilt with :func:`hotdice.game.record.replay`. The browser sends act
requests — set these dice aside, then roll or bank — with the action number it saw (the length of the history).
An act request is applied only if the game is still at that number: a repeated one is recognised and changes
nothing, a stale one is refused with the game as it is now. Dice are drawn on the server at the moment
of the roll (seeded streams for the daily and challenges), so no answer can hold a roll not yet rolled.
"""

from __future__ import annotations

import json
import random
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

import orjson
from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from hotdice.analysis.solver import refusal
from hotdice.analysis.solver.background import SOLVER, Status
from hotdice.game.dice import DiceSource, SecureDice, SeededDice
from hotdice.game.engine import (
    BANK,
    ROLL,
    Decision,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    Roll,
    Step,
    parse_action,
)
from hotdice.game.record import Record, RecordError, record_of, replay, time_text
from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import DiceError, SetAside, parse_dice
from hotdice.play.hint import Hint, hint_of
from hotdice.play.modes import Mode, Setup, pad, race, shown_rules, solo, together, versus
from hotdice.play.names import DefaultName
from hotdice.play.players import LEVELS, choose, computer_spec, make_player
from hotdice.play.view import Ended, TableView
from hotdice.store.stats import record_game
from hotdice.store.web_models import WebGame, WebPlayer
from hotdice.web import clock
from hotdice.web.db import as_owner
from hotdice.web.errors import BadRequest, Conflict, Forbidden, KeyRevealed, NotFound, Stale
from hotdice.web.hub import notifying
from hotdice.web.memo import Recent
from hotdice.web.services.players import clean_name
from hotdice.web.services.reveal import GRACE, revealed_at

__all__ = [
    "EVENTS_TAIL",
    "GAME_ID",
    "HINT_MODES",
    "LEVELS",
    "ONLINE",
    "ActRequest",
    "ActResult",
    "Loaded",
    "StoredSeat",
    "WebSeat",
    "WebView",
    "act",
    "computer_spec",
    "computer_step",
    "create",
    "default_name",
    "hint",
    "human_seat",
    "load",
    "new_game_row",
    "own_name",
    "record_json",
    "stored_seats",
    "view",
    "view_by_id",
    "view_json",
    "view_kept",
]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{16}")  # what secrets.token_urlsafe(12) makes: every game's id
EVENTS_TAIL = 24  # events a view carries by default: more than one action or computer step ever adds

ONLINE = "online"  # the mode of an online table's game (recorded as "together")
HINT_MODES = frozenset({Mode.SOLO, Mode.RACE, Mode.VERSUS, Mode.TOGETHER, Mode.PAD})  # not where scores compare
LOCAL_MODES = (Mode.SOLO, Mode.RACE, Mode.VERSUS, Mode.TOGETHER, Mode.PAD)
# Games this process rebuilt, by id, each as it stands in the database, committed: replaying a whole record
# at every action was the largest part of an action's work. A request takes its game out while it changes it
# in place (:func:`load`), and gives it back once what it wrote is committed, or once it only read it
# (:func:`remember`). A kept game is used for a read row only when the row's record is the kept record's very
# text; and, without reading the row, for an action sent at the kept game's action number: a committed game
# has one state per action number (each write moves it on from the number it read), and the action's UPDATE
# is written only where the row is still at that number, so a move made meanwhile through another process is
# found there, and the game read again.
REBUILT: Recent[str, Loaded] = Recent(1000)


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat as a game's row keeps it (JSON, :meth:`to_json`): a person plays it from a device (``player``; None:
    the device that made the game), a bot among them, or the computer (``spec`` at ``level``, its Hard waiting
    for its table when ``wait``); ``name``: the default name it shows (:class:`DefaultName` JSON; None: a name
    someone chose)."""

    kind: Literal["human", "computer"]
    player: str | None = None
    name: dict[str, Any] | None = None
    spec: str | None = None
    level: str | None = None
    wait: bool = False
    bot: bool = False

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredSeat:
        """The seat a row keeps (rows from before default names kept a seat's name as text: not a default)."""
        name = data.get("name")
        return cls("computer" if data["kind"] == "computer" else "human", data.get("player"),
                   name if isinstance(name, dict) else None, data.get("spec"), data.get("level"),
                   bool(data.get("wait", False)), bool(data.get("bot", False)))

    def to_json(self) -> dict[str, Any]:
        """The row's JSON: only the fields its kind has, as rows have always been written."""
        if self.kind == "computer":
            out: dict[str, Any] = {"kind": "computer", "spec": self.spec, "level": self.level}
            return out | ({"wait": True} if self.wait else {})
        out = {"kind": "human", "player": self.player}
        return out | ({"name": self.name} if self.name is not None else {}) | ({"bot": True} if self.bot else {})


def stored_seats(text: str) -> list[StoredSeat]:
    """The seats of a game's row (its ``seats`` column)."""
    return [StoredSeat.from_json(seat) for seat in json.loads(text)]


@dataclass
class Loaded:
    """A stored game rebuilt: its row, the engine's game, its dice key and its seats; with a key, when each
    history line was played and when the key is revealed."""

    row: WebGame
    game: Game
    seed: bytes | None
    seats: list[StoredSeat]
    extra: dict[str, Any] = field(default_factory=dict)
    played_at: list[str] | None = None
    revealed_at: datetime | None = None

    def ended(self, now: datetime | None = None) -> bool:
        """Ended unfinished: its key is revealed (at ``now``) before it was played out."""
        return (
            self.game.outcome is None
            and self.revealed_at is not None
            and (now or clock.now()) >= self.revealed_at
        )

    @property
    def mode(self) -> str:
        return self.row.mode

    def dice(self) -> DiceSource | None:
        """Where the next roll comes from: the seeded stream, live secure dice, or (score pad) the table."""
        if self.seed is not None:
            return SeededDice(self.seed)
        return None if self.mode == Mode.PAD else SecureDice()

    def controller(self, seat: int) -> str | None:
        """The player whose device plays ``seat``; None for the computer."""
        s = self.seats[seat]
        if not s.human:
            return None
        return str(s.player or self.row.owner_id)

    def defaults(self) -> list[dict[str, Any] | None]:
        """Each seat's default name (:func:`default_name`), None for a name someone chose."""
        return [default_name(seat) for seat in self.seats]

    def seats_of(self, player_id: str | None) -> list[int]:
        return [i for i in range(len(self.seats)) if player_id is not None and self.controller(i) == player_id]


@dataclass(frozen=True, slots=True)
class WebSeat:
    """What the web adds to a seat: the level of the computer playing it (None: a person or a bot), whether its
    Hard holds its move until its table is ready, its default name if nobody chose one, and whether a program
    plays it through a bot token."""

    computer: str | None
    wait: bool
    default: dict[str, Any] | None  # a name nobody chose (hotdice.play.names.DefaultName): the page words it
    bot: bool = False


@dataclass(frozen=True, slots=True)
class WebView(TableView):
    """The table's view (:class:`hotdice.play.view.TableView`) and what only the web knows: the game's id and
    mode, the seats this device plays (``you``), who controls each seat, the day or challenge or table it
    belongs to, when its dice key ended it unfinished, and how far Hard's table is solved. The answer's schema
    (OpenAPI) and the contract with ``table.js``."""

    id: str
    mode: str
    rules_shown: str
    you: tuple[int, ...]
    seats: tuple[WebSeat, ...]
    hints: bool
    roll_off: list[list[list[int]]] | None
    day: str | None
    official: bool | None
    challenge: str | None
    table: str | None
    ended: str | None  # when its dice key was revealed, for a game that ended unfinished there
    finish_by: str | None  # its challenge closed while it is under way: its grace deadline, to finish by
    solver: dict[str, Any] | None


def view_json(view: WebView) -> dict[str, Any]:
    """The view as plain JSON values, for what carries dicts (the live updates, a refusal's body)."""
    parsed: dict[str, Any] = orjson.loads(orjson.dumps(view))
    return parsed


# -- creating, loading, saving --------------------------------------------------------------------------


def record_mode(mode: str) -> str:
    return Mode.TOGETHER.value if mode == ONLINE else mode


def record_json(game: Game, seed: bytes | None, mode: str, played_at: list[str] | None = None) -> str:
    played = None if played_at is None else tuple(played_at)
    return json.dumps(record_of(game, seed=seed, mode=record_mode(mode), played_at=played).to_json())


def new_game_row(
    setup: Setup,
    owner: WebPlayer,
    seats: list[StoredSeat],
    *,
    mode: str | None = None,
    **columns: Any,
) -> WebGame:
    """The row of a new game of ``setup``, ready to add to a session; ``columns``: what the mode adds."""
    game = setup.game
    extra: dict[str, Any] = {}
    if setup.roll_off is not None:
        extra["roll_off"] = [[list(pair) for pair in rnd] for rnd in setup.roll_off.rounds]
    mode = mode or setup.mode.value
    return WebGame(
        id=secrets.token_urlsafe(12),
        mode=mode,
        owner_id=owner.id,
        record=record_json(game, setup.seed, mode, None if setup.seed is None else []),
        action=len(game.history),
        seats=json.dumps([seat.to_json() for seat in seats]),
        extra=json.dumps(extra),
        over=game.outcome is not None,
        score=game.scores[0],
        turns=game.turns_played[0],
        **columns,
    )


def create(
    session: Session,
    owner: WebPlayer,
    mode: str,
    *,
    rules: str | None = None,
    names: list[str | None] | None = None,
    level: str = "medium",
    roll_off: bool = False,
    wait: bool = False,
) -> WebGame:
    """A new game of one of the modes played on one device: solo, race, versus, together, pad; ``names``: None
    for a seat nobody named (the owner's name for the first); ``wait``: Hard waits for its exact play while its
    table is solved, rather than play expected points meanwhile."""
    try:
        table = Rules.parse(rules if rules is not None else owner.rules)
    except RulesError as exc:
        raise BadRequest(f"bad rules: {exc}", because=exc) from None
    people: list[str] = []
    defaults: list[DefaultName | None] = []
    for n, typed in enumerate(names or [None], start=1):
        name, default = (clean_name(typed, n), None) if typed is not None else own_name(owner) if n == 1 else (
            "", DefaultName("player", n))
        people.append(name if default is None else default.english())
        defaults.append(default)
    humans = [human_seat(default=d) for d in defaults]
    try:
        match mode:
            case Mode.SOLO:
                setup, seats = solo(table, people[0]), humans[:1]
            case Mode.RACE:
                setup, seats = race(table, people[0]), humans[:1]
            case Mode.VERSUS:
                if level not in LEVELS:
                    raise BadRequest.said("error.unknown_level", level=level)
                if level == "hard":
                    if (reason := refusal(table)) is not None:
                        raise BadRequest.said("error.hard_too_long", max=reason.max_target, target=reason.target)
                    SOLVER.request("two", table)  # in the background: the table's view tells how far it is
                computer = DefaultName("computer", level=level).english()
                setup = versus(table, people[0], computer, hold_roll_off=roll_off)
                if wait and level != "hard":
                    raise BadRequest.said("error.wait_hard")
                seats = [humans[0], StoredSeat("computer", spec=computer_spec(level), level=level, wait=wait)]
            case Mode.TOGETHER:
                setup, seats = together(table, people, hold_roll_off=roll_off), humans
            case Mode.PAD:
                setup, seats = pad(table, people), humans
            case _:
                raise BadRequest.said("error.unknown_mode", mode=mode, modes=", ".join(m.value for m in LOCAL_MODES))
    except ValueError as exc:  # the mode's own refusals: two players of one name, too many players
        raise BadRequest(str(exc), because=exc) from None
    row = new_game_row(setup, owner, seats)
    session.add(row)
    session.flush()
    return row


def human_seat(player: str | None = None, default: DefaultName | None = None, bot: bool = False) -> StoredSeat:
    """A seat played by a person: from ``player``'s device, or (None) from the device that made the game;
    ``default``: the seat's name is that default, worded when shown (None: a name someone chose); ``bot``: the
    device is a program (:mod:`hotdice.web.services.bots`)."""
    return StoredSeat("human", player, None if default is None else default.to_json(), bot=bot)


def own_name(player: WebPlayer) -> tuple[str, DefaultName | None]:
    """The name a new game records for ``player``, with its default (None: they chose it)."""
    if player.name:
        return player.name, None
    default = DefaultName("player")
    return default.english(), default


def default_name(seat: StoredSeat) -> dict[str, Any] | None:
    """The default name of a stored seat as the view carries it, for a page to word; None: a chosen name. A
    computer is named by its level, whatever words its game was recorded with (rows from before the codes)."""
    if seat.kind == "computer":
        return DefaultName("computer", level=seat.level).to_json()
    return seat.name


# A game's row, read with one Core statement: the ORM's ``Session.get`` cost three times as much, and the row
# is never written through the ORM (:func:`save` writes it with its own UPDATE).
_READ = select(WebGame.__table__).where(WebGame.__table__.c.id == bindparam("game_id"))


def find(session: Session, game_id: str) -> WebGame:
    """The stored game of an id, without rebuilding it: a row of its own, outside the session's identity map
    (see :data:`_READ`)."""
    if GAME_ID.fullmatch(game_id) is None:  # not sent to the database (PostgreSQL refuses a NUL byte: a 500)
        raise NotFound.said("error.game_id")
    found = session.connection().execute(_READ, {"game_id": game_id}).one_or_none()
    if found is None:
        raise NotFound.said("error.no_game", id=game_id)
    return WebGame(**found._mapping)


def load(session: Session, game_id: str, at: int | None = None) -> Loaded:
    """The stored game rebuilt, taken out of :data:`REBUILT` when kept there for the record read; ``at``: the
    action number an action was sent at — a game kept at that number is taken without reading the row."""
    remembered = REBUILT.pop(game_id)
    if remembered is not None and at is not None and remembered.row.action == at:
        return remembered  # an action checks its key's reveal itself (:func:`_refuse_once_revealed`)
    row = find(session, game_id)
    if remembered is not None and remembered.row.record == row.record:
        return replace(remembered, row=row, revealed_at=revealed_at(session, row))
    record = Record.from_json(row.record)
    try:
        game = replay(record)
    except RecordError as exc:  # pragma: no cover - the server wrote it; a failure here is a bug
        raise Conflict(f"this game cannot be rebuilt: {exc}") from None
    seed = None if record.seed is None else bytes.fromhex(record.seed)
    played_at = None if record.played_at is None else list(record.played_at)
    return Loaded(row, game, seed, stored_seats(row.seats), json.loads(row.extra or "{}"), played_at,
                  revealed_at(session, row))


def remember(loaded: Loaded) -> None:
    """Give the game back to :data:`REBUILT`, once it is its row as committed and nothing reads it any more
    (the next request may change it). A finished game is not kept: nothing plays it any more, and the many
    objects of kept games are what the garbage collector goes over again and again."""
    if loaded.game.outcome is None:
        REBUILT.put(loaded.row.id, loaded)


def view_by_id(session: Session, game_id: str, viewer_id: str | None, since: int | None = None) -> WebView:
    """The view of a stored game (:func:`view`)."""
    return view_kept(load(session, game_id), viewer_id, since)


def view_kept(loaded: Loaded, viewer_id: str | None, since: int | None = None,
         now: datetime | None = None) -> WebView:
    """The view of a game that is its row's record (unchanged, or saved); the game is kept once it is seen."""
    shown = view(loaded, viewer_id, since, now)
    remember(loaded)
    return shown


# One UPDATE of what an action changes, only where the action number is still the one read: what the ORM's
# versioned flush does, at several times the cost. Built once: only its values change.
_SAVE = (
    update(WebGame)
    .where(WebGame.id == bindparam("game_id"), WebGame.action == bindparam("read_at"))
    .values({name: bindparam(f"new_{name}") for name in ("record", "action", "score", "turns", "over")})
)


# The same UPDATE with the live update's NOTIFY in one statement (PostgreSQL): one round trip less an action.
_SAVE_AND_NOTIFY = notifying(_SAVE.returning(WebGame.id))


class MovedOn(Exception):
    """Another request wrote the game first, since it was read: nothing was written (the session rolled back)."""


def save(session: Session, loaded: Loaded, notice: str | None = None, at: datetime | None = None) -> bool:
    """Write the game back if nobody has moved it since it was read (else :class:`MovedOn`); True if this
    finished it. ``notice``: a PostgreSQL ``NOTIFY`` text sent by the same statement (:meth:`Hub.within`);
    ``at``: when the lines it adds were played."""
    row, game = loaded.row, loaded.game
    finished = game.outcome is not None and not row.over
    if loaded.played_at is not None:
        loaded.played_at += [time_text(at or clock.now())] * (len(game.history) - len(loaded.played_at))
    written = {
        "record": record_json(game, loaded.seed, row.mode, loaded.played_at),
        "action": len(game.history),
        "score": game.scores[0],
        "turns": game.turns_played[0],
        "over": game.outcome is not None,
    }
    given = {"game_id": row.id, "read_at": row.action, **{f"new_{name}": value for name, value in written.items()}}
    if notice is None:
        written_rows = session.connection().execute(_SAVE, given).rowcount
    else:
        written_rows = len(session.connection().execute(_SAVE_AND_NOTIFY, {**given, "notice": notice}).all())
    if written_rows != 1:
        session.rollback()
        raise MovedOn(row.id)
    for name, value in written.items():
        set_committed_value(row, name, value)
    if finished:
        _record_results(session, loaded)
    return finished


def _record_results(session: Session, loaded: Loaded) -> None:
    """Statistics: every human seat of an online table; otherwise the device owner's seat (the first)."""
    row, game = loaded.row, loaded.game
    humans = [i for i, s in enumerate(loaded.seats) if s.human]
    seats = humans if row.mode == ONLINE else humans[:1]
    computers = [s.spec for s in loaded.seats if s.spec is not None]
    for seat in seats:
        owner = loaded.controller(seat)
        assert owner is not None
        with as_owner(session, owner):
            record_game(
                session,
                game,
                player=seat,
                mode=record_mode(row.mode),
                opponent=computers[0] if computers else None,
                record_json=row.record,
                day=row.day,
                official=row.official,
            )


# -- acting ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActRequest:
    """What the player asks for: set ``keep`` aside, then ``roll`` or ``bank``; ``dice``: the score pad's roll."""

    n: int
    keep: str | None = None
    then: str | None = None
    dice: str | None = None

    def steps(self, rules: Rules) -> list[Step]:
        """The history steps this act request writes (the server's rolled dice apart)."""
        if self.keep is None and self.then is None:
            raise BadRequest.said("error.say_what")
        if self.then not in (None, "roll", "bank"):
            raise BadRequest.said("error.not_roll_or_bank", then=self.then)
        if self.dice is not None and self.then != "roll":
            raise BadRequest.said("error.pad_dice_with_roll")
        out = []
        try:
            if self.keep is not None:
                out.append(Step(SetAside.parse(self.keep, rules.dice)))
            if self.then is not None:
                out.append(Step(parse_action(self.then)))
            if self.dice is not None:
                out.append(Step(Roll(parse_dice(self.dice, rules.dice))))
        except DiceError as exc:
            raise BadRequest(str(exc), because=exc) from None
        return out


@dataclass(frozen=True)
class ActResult:
    """The game after an act request; ``applied`` False: it had already been applied (a repeat), nothing changed.
    ``written``: the game written, to :func:`remember` once the caller has committed it."""

    view: WebView
    applied: bool
    finished: bool = False
    written: Loaded | None = None
    announced: bool = False  # the live update went with the write (:data:`_SAVE_AND_NOTIFY`)
    waiting: Status | None = None  # the computer's step not taken: its Hard waits for this table (its player chose)


# What the caller would announce of a game's new view, as text to send with its write (Hub.within), or None.
Notice = Callable[[WebView], str | None]


def act(
    session: Session,
    game_id: str,
    viewer_id: str,
    asked: ActRequest,
    notice: Notice | None = None,
    now: datetime | None = None,
) -> ActResult:
    """Apply ``asked`` of the player ``viewer_id`` (written, not yet committed: the caller commits);
    ``now``: when it was received."""
    at = now or clock.now()
    loaded = load(session, game_id, at=asked.n)
    game, n = loaded.game, len(loaded.game.history)
    steps = asked.steps(game.rules)
    if asked.n != n:
        return _repeat_or_stale(loaded, viewer_id, asked.n, steps)
    seat = _seat_to_play(loaded, viewer_id)
    if not loaded.seats[seat].human:
        raise Conflict.said("error.computer_turn", name=game.players[seat], name_seat=seat).seated(loaded.defaults())
    dice = loaded.dice()
    if dice is None and asked.then == "roll" and asked.dice is None:
        raise BadRequest.said("error.pad_no_roll")
    if dice is not None and asked.dice is not None:
        raise BadRequest.said("error.server_rolls")
    _refuse_once_revealed(session, loaded, viewer_id, at)
    try:
        first = steps[0].move
        set_aside = first if isinstance(first, SetAside) else None
        # A set-aside alone: the roll or the bank comes in its own act request.
        if asked.then is None and set_aside is not None:
            game.apply(set_aside, player=seat)
        else:
            game.apply_decision(Decision(set_aside, BANK if asked.then == "bank" else ROLL), player=seat)
            typed = steps[-1].move
            if game.phase is Phase.CHANCE and isinstance(typed, Roll):  # the score pad: the player typed the dice
                game.apply_roll(typed.dice)
            elif game.phase is Phase.CHANCE and dice is not None:
                game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
    except (InvalidMoveError, DiceError) as exc:
        raise BadRequest(str(exc), because=exc) from None
    except IllegalMoveError as exc:
        raise Conflict(str(exc), because=exc).seated(loaded.defaults()) from None
    return _saved(session, loaded, viewer_id, notice, at) or _repeat_or_stale(load(session, game_id), viewer_id, n,
                                                                                 steps)


def _refuse_once_revealed(session: Session, loaded: Loaded, viewer_id: str, at: datetime) -> None:
    """KeyRevealed if the game's dice key is revealed at ``at``: whoever plays on could know every roll. The
    game ends as it stands; checked with its challenge held, so that closing it waits for this action."""
    if loaded.seed is None:
        return
    loaded.revealed_at = revealed_at(session, loaded.row, held=True)
    if loaded.ended(at):
        assert loaded.revealed_at is not None
        raise KeyRevealed.said("error.key_revealed", time=time_text(loaded.revealed_at)).carrying(
            game=view_json(view_kept(loaded, viewer_id, now=at)))


def _saved(
    session: Session, loaded: Loaded, viewer_id: str, notice: Notice | None, at: datetime | None = None
) -> ActResult | None:
    """Write the changed game and answer with its view; None: another request wrote it first (nothing was
    written). The view is made before the write: from its UPDATE to the commit the row is locked (the whole
    database on SQLite), so that time is kept short."""
    shown = view(loaded, viewer_id)
    text = None if notice is None else notice(shown)
    try:
        finished = save(session, loaded, text, at)
    except MovedOn:  # a concurrent request came first: this same action (a duplicate), or another one
        return None
    return ActResult(shown, applied=True, finished=finished, written=loaded, announced=text is not None)


def _repeat_or_stale(loaded: Loaded, viewer_id: str, n: int, steps: list[Step]) -> ActResult:
    """The answer to an act request sent at action ``n`` of a game now past it or not there yet: nothing changes."""
    history = loaded.game.history
    if 0 <= n < len(history) and history[n : n + len(steps)] == steps:
        return ActResult(view_kept(loaded, viewer_id), applied=False)
    stale = Stale.said("error.stale_unchanged", at=len(history), n=n)
    raise stale.carrying(game=view_json(view_kept(loaded, viewer_id)))


def _seat_to_play(loaded: Loaded, viewer_id: str) -> int:
    game = loaded.game
    seat = game.to_act
    if not isinstance(seat, int):
        raise Conflict.said("error.game_over")
    if loaded.seats[seat].human and loaded.controller(seat) != viewer_id:
        if not loaded.seats_of(viewer_id):
            raise Forbidden.said("error.watching")
        raise Forbidden.said("error.other_device", name=game.players[seat], name_seat=seat).seated(loaded.defaults())
    return seat


def computer_step(session: Session, game_id: str, viewer_id: str, n: int, notice: Notice | None = None) -> ActResult:
    """One decision of the computer whose turn it is (a roll comes with its dice): shown step by step."""
    loaded = load(session, game_id, at=n)
    game = loaded.game
    if n != len(game.history):
        now = view_kept(loaded, viewer_id)
        if n < len(game.history):
            return ActResult(now, applied=False)
        raise Stale.said("error.stale", at=len(game.history), n=n).carrying(game=view_json(now))
    if not loaded.seats_of(viewer_id):
        raise Forbidden.said("error.players_only")
    seat = game.to_act
    if not isinstance(seat, int):
        raise Conflict.said("error.game_over")
    spec = loaded.seats[seat].spec
    if spec is None:
        raise Conflict.said("error.not_computer_turn", name=game.players[seat], name_seat=seat).seated(
            loaded.defaults())
    at = clock.now()
    _refuse_once_revealed(session, loaded, viewer_id, at)
    # The computer's randomness is fixed by the game and the moment: asking again gives the same decision.
    from hotdice.play.players.skilled import at_once, pending

    player = make_player(spec, random.Random(f"{loaded.row.id}/{n}"))
    # Hard plays expected points until its table is solved, in the background; or waits, if so chosen.
    at_once(player, patient=loaded.seats[seat].wait)
    if (waiting := pending(player, game)) is not None:
        return ActResult(view_kept(loaded, viewer_id), applied=False, waiting=waiting)
    action = choose(player, game)  # rules its solver does not cover: that decision is the plain player's
    dice = loaded.dice()
    assert dice is not None  # computers play only where the server rolls
    game.play(action, dice)
    # None: the same step asked from two screens at once, taken once.
    return _saved(session, loaded, viewer_id, notice, at) or ActResult(view_kept(load(session, game_id), viewer_id),
                                                                   applied=False)


def hint(session: Session, game_id: str, viewer_id: str) -> Hint:
    """The coach's advice for the player to act, where the mode allows it."""
    loaded = load(session, game_id)
    try:
        return _advice(loaded, viewer_id)
    finally:
        remember(loaded)  # only read: the next action takes it as it is


def _advice(loaded: Loaded, viewer_id: str) -> Hint:
    if loaded.mode not in HINT_MODES:
        raise Forbidden.said("error.no_hints")
    _seat_to_play(loaded, viewer_id)
    try:
        return hint_of(loaded.game)  # a request never waits for a solve: expected points stand in meanwhile
    except ValueError as exc:
        raise Conflict(f"no hint here: {exc}") from None


# -- what the browser is shown ---------------------------------------------------------------------------


def player_name(game: WebGame) -> tuple[str, dict[str, Any] | None]:
    """The name a one-player game was played under (its record's first seat), with its default name."""
    return str(json.loads(game.record)["players"][0]), default_name(stored_seats(game.seats)[0])


def view(loaded: Loaded, viewer_id: str | None = None, since: int | None = None,
         now: datetime | None = None) -> WebView:
    """Everything the table shows, and what its player may do now (at ``now``); nothing that has not happened
    yet.

    Its ``events`` are those from number ``since`` on (``events_from``), by default the last
    :data:`EVENTS_TAIL`: a screen keeps the log it has and appends them, so that the answer of an action stays
    small however long the game (with the whole log, one action of a long game answered tens of kilobytes).
    """
    game, row = loaded.game, loaded.row
    ended = loaded.ended(now)
    shown = WebView.of(
        game,
        since=since,
        tail=EVENTS_TAIL,
        stopped=ended,
        id=row.id,
        mode=row.mode,
        rules_shown=shown_rules(game.rules),
        you=tuple(loaded.seats_of(viewer_id)),
        seats=tuple(WebSeat(s.level if s.kind == "computer" else None, s.wait, default_name(s), s.bot)
                    for s in loaded.seats),
        hints=row.mode in HINT_MODES,
        roll_off=loaded.extra.get("roll_off"),
        day=None if row.day is None else row.day.isoformat(),
        official=row.official,
        challenge=row.challenge_code,
        table=row.table_code,
        ended=None if not ended or loaded.revealed_at is None else time_text(loaded.revealed_at),
        finish_by=_finish_by(loaded, now),
        solver=_solver_status(loaded),
    )
    if not ended or loaded.revealed_at is None:
        return shown
    return replace(shown, outcome=Ended(time_text(loaded.revealed_at), tuple(game.scores)))


def _finish_by(loaded: Loaded, now: datetime | None) -> str | None:
    """The grace deadline of a challenge's attempt under way once the challenge has closed (until the reveal,
    an unfinished attempt's reveal is that deadline: :func:`hotdice.web.services.reveal.challenge_revealed_at`)."""
    row, reveal = loaded.row, loaded.revealed_at
    if row.challenge_code is None or reveal is None or loaded.game.outcome is not None or loaded.ended(now):
        return None
    return time_text(reveal) if (now or clock.now()) >= reveal - GRACE else None


def _solver_status(loaded: Loaded) -> dict[str, Any] | None:
    """How far the background solver is with the table of the game's Hard player (None: there is none, or the
    game is over; a hint tells its own), asked for again if this process has not (after a restart)."""
    game = loaded.game
    if game.outcome is not None or not any(seat.level == "hard" for seat in loaded.seats):
        return None
    return (SOLVER.status("two", game.rules) or SOLVER.request("two", game.rules)).json()
