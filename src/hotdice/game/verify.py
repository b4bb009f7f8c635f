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

from hotdice.game.engine import EventKind
from hotdice.game.record import Record, RecordAltered, RecordError, replay

__all__ = ["Verdict", "VerifyError", "commitment_of", "parse_key", "verify", "verify_text"]

_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class VerifyError(ValueError):
    """Nothing to verify: the input is not a finished game's record, or a key or commitment is malformed."""


@dataclass(frozen=True)
class Verdict:
    """Whether the record verifies; ``lines`` say what was checked, or the first mismatch (one line)."""

    valid: bool
    lines: tuple[str, ...]


def commitment_of(key: bytes) -> str:
    """The commitment to a dice key, published before its dice are played: SHA-256 of the key, in hex."""
    return hashlib.sha256(key).hexdigest()


def parse_key(text: str) -> bytes:
    """A dice key written in hex (as records and the web service show it); VerifyError if it is not one."""
    cleaned = text.strip().lower()
    if not _HEX.fullmatch(cleaned):
        raise VerifyError(f"the key '{text[:80]}' is not hexadecimal bytes")
    return bytes.fromhex(cleaned)


def verify_text(text: str, *, key: str | None = None, commitment: str | None = None) -> Verdict:
    """:func:`verify` for a record as JSON text, with the key and commitment as typed (hex)."""
    try:
        record = Record.from_json(text)
    except RecordAltered as exc:
        return Verdict(False, (f"does not verify: {exc}",))
    except RecordError as exc:
        raise VerifyError(str(exc)) from None
    return verify(record, key=None if key is None else parse_key(key), commitment=commitment)


def verify(record: Record, *, key: bytes | None = None, commitment: str | None = None) -> Verdict:
    """Check ``record`` against the dice key (its own seed, or ``key``) and, if given, the commitment.

    VerifyError when there is nothing to check: no key anywhere, a malformed commitment, or an unfinished
    game (except one its key's reveal ended: the record says when that was).
    """
    if record.result.winners is None and (record.revealed_at is None or record.played_at is None):
        raise VerifyError("the record is of an unfinished game: only a finished game can be verified")
    wanted = None if commitment is None else commitment.strip().lower()
    if wanted is not None and not _SHA256.fullmatch(wanted):
        raise VerifyError(f"the commitment '{commitment}' is not a SHA-256 in hex (64 hexadecimal digits)")
    if key is None:
        if record.seed is None:
            raise VerifyError(
                "the record holds no dice key: give the revealed key with --key HEX "
                "(games with live dice have no key and cannot be verified)"
            )
        key, source = bytes.fromhex(record.seed), "the record"
    else:
        if record.seed is not None and record.seed != key.hex():
            return _fails(f"the record's dice key {record.seed} is not the key given ({key.hex()})")
        source = "--key"
    checked = [f"dice key: {key.hex()} (from {source})"]
    if wanted is None:
        checked.append("commitment: not checked (give the published one with --commitment HEX)")
    elif commitment_of(key) != wanted:
        return _fails(f"SHA-256 of the key is {commitment_of(key)}, not the commitment {wanted}")
    else:
        checked.append(f"commitment: SHA-256 of the key is {wanted}, as published")
    if record.revealed_at is None or record.played_at is None:
        checked.append("reveal: not checked (the record does not say when its lines were played and its key revealed)")
    else:
        for position, (line, played) in enumerate(zip(record.history, record.played_at, strict=True), start=1):
            if played > record.revealed_at:  # times of one width: as text, in the order of time
                return _fails(f"history line {position} ('{line}') was played at {played}, after the dice key was "
                              f"revealed at {record.revealed_at}: every roll was known by then")
        checked.append(f"reveal: every line was played before the dice key was revealed at {record.revealed_at}")
    try:
        game = replay(dataclasses.replace(record, seed=key.hex()))
    except RecordError as exc:
        return _fails(str(exc))
    rolls = sum(event.kind is EventKind.ROLL for event in game.events)
    turns = sum(game.turns_played)
    actions = len(game.history) - rolls
    names = game.players
    final = ", ".join(f"{name} {score}" for name, score in zip(names, game.scores, strict=True))
    if game.outcome is None:  # replay gave the record's result: unfinished, ended by the key's reveal
        ending = f"unfinished: it ended when its dice key was revealed at {record.revealed_at}"
    else:
        winners = " and ".join(names[w] for w in game.outcome.winners)
        ending = f"won by {winners} ({game.outcome.termination.value})"
    checked += [
        f"rolls: all {rolls} rolls of the {turns} turns recomputed from the key, every face as recorded",
        f"history: all {actions} actions legal (replayed through the engine)",
        f"result: {final}, {ending}, as recorded",
        "VALID: every roll of this game comes from the key, and the record is the game that was played",
    ]
    return Verdict(True, tuple(checked))


def _fails(reason: str) -> Verdict:
    return Verdict(False, (f"does not verify: {reason}",))
