"""Provable fairness: check a finished game's record against the dice key the server committed to.

A server that deals seeded dice (the daily game, friend challenges) publishes the **commitment**
SHA-256(key) before anyone plays, and reveals the key once nobody can still use it. With the key,
anyone can recompute every roll (:class:`hotdice.game.dice.SeededDice`) and compare it with the record; with
the commitment, anyone can check the key was not chosen after the fact.

:func:`verify` checks, in this order: the record's digest, that the key is the record's own (or the one
given), that SHA-256 of the key is the commitment, that no line was played after the key was revealed
(where the record says when), every roll face by face, every action through the engine, and the final
result. The first mismatch is the verdict.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass

from hotdice.game.engine import EventKind, Termination
from hotdice.game.record import Record, RecordAltered, RecordError, check_result, rebuild
from hotdice.game.refusals import expect
from hotdice.game.told import Told

__all__ = ["Verdict", "VerifyError", "commitment_of", "parse_key", "verify", "verify_text"]

_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class VerifyError(ValueError):
    """Nothing to verify: the input is not a finished game's record, or a key or commitment is malformed; why, as
    data, in :attr:`told` (``str()`` is its English)."""

    def __init__(self, told: Told) -> None:
        super().__init__(str(told))
        self.told = told


@dataclass(frozen=True)
class Verdict:
    """Whether the record verifies; ``told`` says what was checked, or the first mismatch (one fact), as data
    (:mod:`hotdice.game.told`); ``lines`` say it in English."""

    valid: bool
    told: tuple[Told, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(map(str, self.told))


def commitment_of(key: bytes) -> str:
    """The commitment to a dice key, published before its dice are played: SHA-256 of the key, in hex."""
    return hashlib.sha256(key).hexdigest()


def parse_key(text: str) -> bytes:
    """A dice key written in hex (as records and the web service show it); VerifyError if it is not one."""
    expect(text, str, "key")
    cleaned = text.strip().lower()
    if not _HEX.fullmatch(cleaned):
        raise VerifyError(Told("bad_key", {"key": text[:80]}))
    return bytes.fromhex(cleaned)


def verify_text(text: str, *, key: str | None = None, commitment: str | None = None) -> Verdict:
    """:func:`verify` for a record as JSON text, with the key and commitment as typed (hex)."""
    expect(text, str, "text")
    try:
        record = Record.from_json(text)
    except RecordAltered as exc:
        return _fails(exc)
    except RecordError as exc:
        raise VerifyError(exc.told) from None
    return verify(record, key=None if key is None else parse_key(key), commitment=commitment)


def verify(record: Record, *, key: bytes | None = None, commitment: str | None = None) -> Verdict:
    """Check ``record`` against the dice key (its own seed, or ``key``) and, if given, the commitment.

    VerifyError when there is nothing to check: no key anywhere, a malformed commitment, or an unfinished
    game (except one its key's reveal ended: the record says when that was).
    """
    expect(record, Record, "record")
    if key is not None:
        expect(key, bytes, "key")
    if commitment is not None:
        expect(commitment, str, "commitment")
    if record.result.winners is None and (record.revealed_at is None or record.played_at is None):
        raise VerifyError(Told("unfinished_record"))
    wanted = None if commitment is None else commitment.strip().lower()
    if wanted is not None and not _SHA256.fullmatch(wanted):
        raise VerifyError(Told("bad_commitment", {"commitment": commitment}))
    if key is None:
        if record.seed is None:
            raise VerifyError(Told("no_key"))
        key, source = bytes.fromhex(record.seed), "key_record"
    else:
        if record.seed is not None and record.seed != key.hex():
            return _fails(Told("key_mismatch", {"record": record.seed, "given": key.hex()}))
        source = "key_given"
    checked = [Told(source, {"key": key.hex()})]
    if wanted is None:
        checked.append(Told("commitment_unchecked"))
    elif commitment_of(key) != wanted:
        return _fails(Told("commitment_mismatch", {"actual": commitment_of(key), "wanted": wanted}))
    else:
        checked.append(Told("commitment_ok", {"commitment": wanted}))
    if record.revealed_at is None or record.played_at is None:
        checked.append(Told("reveal_unchecked"))
    else:
        for position, (line, played) in enumerate(zip(record.history, record.played_at, strict=True), start=1):
            if played > record.revealed_at:  # times of one width: as text, in the order of time
                return _fails(Told("after_reveal", {"line": position, "text": line, "played": played,
                                                    "revealed": record.revealed_at}))
        checked.append(Told("reveal_ok", {"revealed": record.revealed_at}))
    try:
        game = rebuild(dataclasses.replace(record, seed=key.hex()))
    except RecordAltered as exc:  # a roll the key does not give
        return _fails(exc)
    except RecordError as exc:  # no game under its rules: a set-up or a line they refuse
        raise VerifyError(exc.told) from None
    unreached = record.turn_limit is not None and game.outcome is None
    if unreached and record.result.termination is Termination.TURN_LIMIT:
        raise VerifyError(Told("turn_limit_unreached", {"limit": record.turn_limit, "turns": max(game.turns_played)}))
    try:
        check_result(record, game)
    except RecordAltered as exc:
        return _fails(exc)
    rolls = sum(event.kind is EventKind.ROLL for event in game.events)
    turns = sum(game.turns_played)
    actions = len(game.history) - rolls
    names = game.players
    final = tuple(zip(names, game.scores, strict=True))
    if game.outcome is None:  # replay gave the record's result: unfinished, ended by the key's reveal
        ending = Told("ended_by_reveal", {"revealed": record.revealed_at})
    else:
        winners = tuple(names[w] for w in game.outcome.winners)
        ending = Told("won_by", {"winners": winners, "end": Told(f"end.{game.outcome.termination.value}")})
    checked += [
        Told("rolls", {"rolls": rolls, "turns": turns}),
        Told("history", {"actions": actions}),
        Told("result", {"final": final, "ending": ending}),
        Told("valid"),
    ]
    return Verdict(True, tuple(checked))


def _fails(reason: Told | RecordError) -> Verdict:
    return Verdict(False, (Told("fails", {"reason": reason.told if isinstance(reason, RecordError) else reason}),))
