"""Game records: the rules plus the actions (DESIGN.md point 7), written as JSON and replayed.

A record keeps what is needed to rebuild a game — the rules string, the players, who started, the turn
limit, the mode, the seed of the dice if they were seeded, and the engine's history, one line per
:class:`~hotdice.game.engine.Step` ("roll", "dice 123456", "keep 155", "bank") — plus the result it claims.
:func:`replay` rebuilds the game by giving each step read from its line to a fresh
:class:`~hotdice.game.engine.Game`, so a record can only describe what the engine allows.

How a record is guarded:

- ``digest``: SHA-256 of the canonical JSON of every other field. It catches accidental corruption
  (a truncated download, a slip while editing), not tampering: anyone can recompute it.
- Tampering by someone who recomputes the digest is caught by replay itself: with a seed, every roll must
  be the seeded roll of its (turn, roll), so no die can be changed; every action must be legal; and the
  rebuilt scores and outcome must equal the stored result. Records of live or typed-in dice (no seed)
  can only be checked for legality and for their result.
- The seed itself is vouched for by a commitment: a server publishes SHA-256 of a daily's or a challenge's
  key before anyone plays it and reveals the key afterwards; ``hotdice verify`` (:mod:`hotdice.game.verify`)
  checks a record against both.
- A key once revealed tells every roll to come: a server accepts no action after it, and the records of its
  seeded games say when each line was played (``played_at``) and when the key was revealed
  (``revealed_at``), so that ``hotdice verify`` refuses a record played on after its key was known.
"""

from __future__ import annotations

import hashlib
import json
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from hotdice.game.dice import SeededDice
from hotdice.game.engine import (
    CHANCE,
    EventKind,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    Roll,
    Step,
    Termination,
)
from hotdice.game.refusals import Refused, expect
from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import DiceError
from hotdice.game.told import Told, told_event

__all__ = [
    "VERSION", "Record", "RecordAltered", "RecordError", "Result", "check_result", "rebuild", "record_of", "replay",
    "state_json", "time_text", "told", "transcript",
]  # fmt: skip

VERSION = 1  # the record format this hotdice writes and reads
_FIELDS = ("version", "rules", "players", "first", "turn_limit", "mode", "seed", "history", "result", "digest")
_TIMES = ("played_at", "revealed_at")  # optional: only seeded games of a server have them
_HEX = re.compile(r"(?:[0-9a-f]{2})*")
_TIME = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")  # time_text


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where and why, and :attr:`told` too, as
    data (:mod:`hotdice.game.told`; a record that does not read is told by its English message alone, ``plain``)."""

    def __init__(self, message: str | Told) -> None:
        super().__init__(str(message))
        self.told = message if isinstance(message, Told) else Told("plain", {"text": message})


class RecordAltered(RecordError):
    """A well-formed record that is not what was played: its digest, a roll or its result does not match."""


@dataclass(frozen=True)
class Result:
    """What a record says the game came to: the scores, and who won and why (None while unfinished)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...] | None = None
    termination: Termination | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": None if self.winners is None else list(self.winners),
            "termination": None if self.termination is None else self.termination.value,
        }


@dataclass(frozen=True)
class Record:
    """One game, finished or not, as the rules and the actions. Build it with :func:`record_of`."""

    rules: str
    players: tuple[str, ...]
    first: int
    turn_limit: int | None
    mode: str
    seed: str | None  # hex of the SeededDice key; None for live or typed-in dice
    history: tuple[str, ...]
    result: Result
    version: int = VERSION
    # Seeded games of a server: when each history line was played, and when the dice key was revealed
    # (UTC, ISO 8601, to the second); None in records of other games and in records written before them.
    played_at: tuple[str, ...] | None = None
    revealed_at: str | None = None

    def __post_init__(self) -> None:
        if self.version != VERSION:
            raise RecordError(f"unknown record version {_shown(self.version)}: this hotdice reads version {VERSION}")
        try:
            Rules.parse(self.rules)
        except RulesError as exc:
            raise RecordError(f"bad rules string '{self.rules}': {exc}") from None
        if not 0 <= self.first < len(self.players):
            raise RecordError(f"first player {self.first} is not one of the {len(self.players)} players")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise RecordError(f"turn_limit must be at least 1, not {self.turn_limit}")
        if self.seed is not None and not _HEX.fullmatch(self.seed):
            raise RecordError(f"seed '{self.seed}' is not lowercase hexadecimal bytes")
        r = self.result
        if len(r.scores) != len(self.players):
            raise RecordError(f"the result has {len(r.scores)} scores for {len(self.players)} players")
        if (r.winners is None) != (r.termination is None):
            raise RecordError("the result needs both winners and termination, or neither (unfinished game)")
        if r.winners is not None and (not r.winners or any(not 0 <= w < len(self.players) for w in r.winners)):
            raise RecordError(f"winners {list(r.winners)} are not players of this game")
        if self.played_at is not None and len(self.played_at) != len(self.history):
            raise RecordError(f"played_at has {len(self.played_at)} times for {len(self.history)} history lines")
        for moment in (*(self.played_at or ()), *(() if self.revealed_at is None else (self.revealed_at,))):
            if not _TIME.fullmatch(moment):
                raise RecordError(f"the time {_shown(moment)} is not UTC written YYYY-MM-DDTHH:MM:SSZ")

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object, ending with its digest."""
        return {**self._content(), "digest": self.digest}

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of the canonical JSON (sorted keys, no spaces, UTF-8) of every other field."""
        return _digest(self._content())

    def _content(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "rules": self.rules,
            "players": list(self.players),
            "first": self.first,
            "turn_limit": self.turn_limit,
            "mode": self.mode,
            "seed": self.seed,
            "history": list(self.history),
            "result": self.result.to_json(),
            # Only where there are times: the records of every other game stay as they were, digest included.
            **({} if self.played_at is None else {"played_at": list(self.played_at)}),
            **({} if self.revealed_at is None else {"revealed_at": self.revealed_at}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Record:
        """Inverse of :meth:`to_json`; also accepts the JSON text. Refuses anything malformed or corrupted."""
        if isinstance(data, str):
            try:  # orjson refuses what would crash json: lone surrogates, nesting past 1024, huge integers
                data = orjson.loads(data)
            except orjson.JSONDecodeError as exc:
                raise RecordError(f"not a game record: invalid JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, Mapping):
            raise RecordError("not a game record: a record is a JSON object")
        if _depth(data) > MAX_DEPTH:  # before anything recurses into it
            raise RecordError("not a game record: it is nested too deeply")
        if "version" in data and data["version"] != VERSION:
            raise RecordError(f"unknown record version {_shown(data['version'])}: this hotdice reads version {VERSION}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise RecordError(f"not a game record: missing field(s) {', '.join(missing)}")
        unknown = sorted(set(data) - set(_FIELDS) - set(_TIMES))
        if unknown:
            raise RecordError(f"not a game record: unknown field(s) {', '.join(unknown)}")
        digest = _get(data, "digest", str)
        result = _get(data, "result", dict)
        missing = [name for name in ("scores", "winners", "termination") if name not in result]
        if missing or len(result) != 3:
            raise RecordError("result must hold exactly scores, winners and termination")
        termination = _get(result, "termination", str, optional=True)
        try:
            ended = None if termination is None else Termination(termination)
        except ValueError:
            known = ", ".join(t.value for t in Termination)
            raise RecordError(f"termination '{termination}' is not one of {known}") from None
        winners = _get(result, "winners", list, optional=True)
        # Read and checked before its digest: a record that cannot be one (exit 2 in verify) is told so even
        # when its digest does not match, rather than read as altered.
        record = cls(
            version=_get(data, "version", int),
            rules=_get(data, "rules", str),
            players=tuple(_items(data, "players", str)),
            first=_get(data, "first", int),
            turn_limit=_get(data, "turn_limit", int, optional=True),
            mode=_get(data, "mode", str),
            seed=_get(data, "seed", str, optional=True),
            history=tuple(_items(data, "history", str)),
            result=Result(
                scores=tuple(_items(result, "scores", int)),
                winners=None if winners is None else tuple(_items(result, "winners", int)),
                termination=ended,
            ),
            played_at=None if data.get("played_at") is None else tuple(_items(data, "played_at", str)),
            revealed_at=_get(data, "revealed_at", str, optional=True) if "revealed_at" in data else None,
        )
        if digest != _digest({name: value for name, value in data.items() if name != "digest"}):
            raise RecordAltered(Told("digest"))
        return record


MAX_DEPTH = 32  # nesting of a record's JSON: a real one has a few levels


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects, counted without recursion (a record may be hostile)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, Mapping) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, Mapping | list):
                if depth + 1 > MAX_DEPTH:
                    return depth + 1
                level.append((child, depth + 1))
        deepest = max(deepest, depth)
    return deepest


def _digest(content: Mapping[str, Any]) -> str:
    # json.dumps recurses: a record nested deeper than Python's recursion limit allows (which other code may
    # change) must be refused before it, the same way every time.
    if _depth(content) > MAX_DEPTH:
        raise RecordError("not a game record: it is nested too deeply")
    try:
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise RecordError(f"not a game record: {exc}") from None
    return hashlib.sha256(canonical).hexdigest()


def time_text(moment: datetime) -> str:
    """A moment as records write it: UTC, ISO 8601, to the second (``2026-12-01T23:59:59Z``); of fixed width,
    so that such times compare as text in the order of time."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _shown(value: object) -> str:
    """A value of a refused record, short and on one line, whatever it is (deeply nested, thousands of digits)."""
    return reprlib.repr(value)


def _get(data: Mapping[str, Any], name: str, kind: type, optional: bool = False) -> Any:
    value = data[name]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        wanted = {int: "a whole number", str: "a string", list: "a list", dict: "an object"}[kind]
        raise RecordError(f"field '{name}' must be {wanted}{' or null' if optional else ''}, not {_shown(value)}")
    return value


def _items(data: Mapping[str, Any], name: str, kind: type) -> list[Any]:
    items: list[Any] = _get(data, name, list)
    for item in items:
        if not isinstance(item, kind) or isinstance(item, bool):
            wanted = {int: "whole numbers", str: "strings"}[kind]
            raise RecordError(f"field '{name}' must be a list of {wanted}, not holding {_shown(item)}")
    return items


def record_of(
    game: Game, *, seed: bytes | None = None, mode: str = "versus", played_at: tuple[str, ...] | None = None
) -> Record:
    """The record of ``game`` as it stands; ``seed`` is the key of the :class:`SeededDice` it was played with;
    ``played_at``: when each history line was played (:func:`time_text`). A game set up from a position
    has none: a record replays from the beginning of a game."""
    if game.start_position is not None:
        raise ValueError(f"a game set up from a position ({game.start_position}) has no record")
    outcome = game.outcome
    return Record(
        rules=str(game.rules),
        players=tuple(game.players),
        first=game.first,
        turn_limit=game.turn_limit,
        mode=mode,
        seed=None if seed is None else seed.hex(),
        history=tuple(map(str, game.history)),
        result=Result(
            scores=game.scores,
            winners=None if outcome is None else outcome.winners,
            termination=None if outcome is None else outcome.termination,
        ),
        played_at=played_at,
    )


def replay(record: Record) -> Game:
    """Rebuild the game of ``record`` by applying its history; RecordError if it does not replay as stored."""
    game = rebuild(record)
    check_result(record, game)
    return game


def rebuild(record: Record) -> Game:
    """The game of ``record``'s set-up and history, its rolls checked against its seed, its result not compared
    (:func:`check_result`); RecordAltered for a roll its seed does not give, RecordError for a set-up or a line
    no game under its rules has."""
    expect(record, Record, "record")
    try:
        game = Game(Rules.parse(record.rules), players=record.players, first=record.first, turn_limit=record.turn_limit)
    except ValueError as exc:
        reason = exc.refusal if isinstance(exc, Refused) else str(exc)
        raise RecordError(Told("cannot_set_up", {"reason": reason})) from None
    rules = game.rules
    seeded = None if record.seed is None else SeededDice(bytes.fromhex(record.seed))
    for position, line in enumerate(record.history, start=1):
        where = {"line": position, "text": line}
        try:
            move = Step.parse(line, rules.dice).move
            if isinstance(move, Roll):
                if seeded is not None and game.phase is Phase.CHANCE:
                    expected = seeded.roll(game.dice_in_hand, game.turn, game.rolls_this_turn)
                    if move.dice != expected:
                        raise RecordAltered(Told("roll_altered", {
                            **where, "roll": game.rolls_this_turn + 1, "turn": game.turn + 1, "expected": expected}))
                game.apply_roll(move.dice)
            else:
                game.apply(move)
        except (DiceError, InvalidMoveError, IllegalMoveError) as exc:
            banking = isinstance(exc, IllegalMoveError) and exc.bank
            raise RecordError(Told("line_bank_refused" if banking else "line_refused",
                                   {**where, "reason": exc.refusal})) from None
        if str(game.history[-1]) != line:
            raise RecordError(Told("line_rewritten", {**where, "written": str(game.history[-1])}))
    return game


def check_result(record: Record, game: Game) -> None:
    """RecordAltered if ``game`` (``record`` rebuilt) did not come to the result the record says."""
    result = record_of(game).result
    if result != record.result:
        raise RecordAltered(Told("result_altered", {"said": _said(record.result), "replayed": _said(result)}))


def _said(result: Result) -> Told:
    if result.winners is None or result.termination is None:
        return Told("said_unfinished", {"scores": result.scores})
    return Told("said_won", {"scores": result.scores, "winners": result.winners,
                             "end": Told(f"end.{result.termination.value}")})


# -- for people and scripts ----------------------------------------------------------------------


def state_json(game: Game) -> dict[str, Any]:
    """The state of a game as JSON: what a front end shows and what a player may do next."""
    outcome = game.outcome
    return {
        "rules": str(game.rules),
        "players": list(game.players),
        "phase": game.phase.value,
        "to_act": game.to_act if isinstance(game.to_act, int) else None,
        "current": game.current,
        "turn": game.turn,
        "rolls_this_turn": game.rolls_this_turn,
        "scores": list(game.scores),
        "entered": list(game.entered),
        "farkles_in_row": list(game.farkles_in_row),
        "turns_played": list(game.turns_played),
        "turn_total": game.turn_total,
        "roll": None if game.roll is None else list(game.roll),
        "set_aside": [str(set_aside) for set_aside in game.set_asides],
        "dice_to_roll": game.dice_in_hand,
        "hot_dice": game.hot_dice,
        "must_validate": game.must_validate,
        "last_round_by": game.last_round_by,
        "legal_actions": [str(action) for action in game.legal_actions()],
        "outcome": None
        if outcome is None
        else {
            "winners": list(outcome.winners),
            "termination": outcome.termination.value,
            "scores": list(outcome.scores),
        },
        "history_length": len(game.history),
    }


def _lost(code: str, points: int, **values: object) -> Told:
    return Told(f"{code}_lost", {**values, "points": points}) if points else Told(code, values)


def transcript(record: Record, rules_shown: str | None = None) -> list[str]:
    """The game of ``record`` told turn by turn: a header, a line per turn and per roll, and the result.
    ``rules_shown``: the rules as the players chose them, for the header (a ten-turn mode's record keeps the
    rules it played, with their lifted target: see :func:`hotdice.play.modes.shown_rules`).

    Golden playthroughs pin this text, so any change in the engine's behaviour shows up as a diff.
    """
    return [str(line) for line in told(record, rules_shown)]


def told(record: Record, rules_shown: str | None = None) -> list[Told]:
    """The facts :func:`transcript` tells, one per line (:mod:`hotdice.game.told`), for a front end to word."""
    if rules_shown is not None:
        expect(rules_shown, str, "rules_shown")
    game = replay(record)
    rules, names = game.rules, game.players
    players = {"names": names, "first": names[record.first], "mode": record.mode,
               "dice": Told("unseeded") if record.seed is None else Told("seeded", {"seed": record.seed})}
    lines = [
        Told("rules", {"rules": rules_shown or record.rules}),
        Told("players", players) if record.turn_limit is None
        else Told("players_limited", {**players, "turns": record.turn_limit}),
    ]
    said: list[Told] = []  # what happened after the roll being told

    def say(fact: Told) -> None:
        said.append(fact)
        lines[-1] = Told("roll_said", {**lines[-1].values, "said": tuple(said)})

    for e in game.events:  # each event says what it says (told_event): the transcript groups them by roll
        fact = told_event(game, e)
        if e.kind in (EventKind.TURN, EventKind.ROLL):
            lines.append(fact)
            said = []
        elif e.kind is not EventKind.GAME_OVER:  # told below, from the outcome, with the final scores
            say(fact)
    final = tuple(zip(names, game.scores, strict=True))
    if game.outcome is None and record.revealed_at is not None and record.played_at is not None:
        lines.append(Told("ended_unfinished", {"revealed": record.revealed_at, "final": final}))  # outside the rules
    elif game.outcome is None:
        acting = Told("dice_to_roll") if game.to_act is CHANCE else Told("to_play", {"name": names[game.current]})
        lines.append(Told("unfinished", {"acting": acting, "final": final}))
    else:
        winners = tuple(names[w] for w in game.outcome.winners)
        ending = game.outcome.termination
        why = Told(f"why.{ending.value}", {} if ending in _TARGETLESS else {"target": rules.target})
        lines.append(Told("game_over" if len(winners) == 1 else "game_over_shared",
                          {"why": why, "winners": winners, "final": final}))
    return lines


_TARGETLESS = (Termination.FIVE_ONES, Termination.TURN_LIMIT)  # endings whose sentence names no target
