"""What a replay or a verification tells, as data: a code and the values its sentence needs (names, numbers, dice,
other facts), like a :class:`~hotdice.game.refusals.Refusal`.

The library speaks English: :data:`ENGLISH` holds its sentences and ``str()`` of a :class:`Told` is one of them.
A front end words the same facts in its player's language with :class:`Telling` and its own templates (the
catalogue's ``transcript.<code>``; ``why.<termination>`` is the catalogue's ``over.why.<termination>``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hotdice.game.engine import Event, EventKind, Game
from hotdice.game.refusals import Refusal, Words

__all__ = ["ENGLISH", "Telling", "Told", "farkle_code", "told_event"]


@dataclass(frozen=True)
class Told:
    """One fact told: :attr:`code` names its sentence, :attr:`values` fill it (a value may be another fact, a
    tuple of facts, a refusal). ``str()`` is the English sentence."""

    code: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return _ENGLISH_TELLING.tell(self)


class Telling(Words):
    """Words facts with ``template`` (code -> sentence): a fact or a refusal among the values is worded too,
    every whole number is written by ``number``; ``{x:faces}`` writes dice apart (1 5 5), ``{x:and}`` joins names
    with ``and_word``, ``{x:dash}`` joins numbers with dashes (3000-4500), ``{x:then}`` joins facts with ``then``,
    ``{x:scores}`` writes (name, score) pairs, ``{x:mode}`` a game mode by ``mode`` and ``{x:time}`` a record's
    time (UTC, 2026-12-01T23:59:59Z) by ``time``."""

    def __init__(
        self,
        template: Callable[[str], str],
        *,
        number: Callable[[int], str] = str,
        refusal: Callable[[Refusal], str] = str,
        mode: Callable[[str], str] = str,
        time: Callable[[str], str] = str,
        or_word: str = " or ",
        and_word: str = " and ",
        then: str = "; ",
    ) -> None:
        super().__init__(or_word)
        self.template, self.number, self.refusal, self.mode, self.time = template, number, refusal, mode, time
        self.and_word, self.then = and_word, then

    def tell(self, told: Told) -> str:
        return self.format(self.template(told.code), **told.values)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Told):
            return self.tell(value)
        if isinstance(value, Refusal):
            return self.refusal(value)
        if isinstance(value, int) and not format_spec:
            return self.number(value)
        if format_spec == "faces":
            return " ".join(map(str, value))
        if format_spec == "and":
            return self.and_word.join(map(str, value))
        if format_spec == "then":
            return self.then.join(self.tell(told) for told in value)
        if format_spec == "dash":
            return "-".join(map(self.number, value))
        if format_spec == "scores":
            return self.comma.join(f"{name} {self.number(score)}" for name, score in value)
        if format_spec == "mode":
            return self.mode(value)
        if format_spec == "time":
            return self.time(value)
        return super().format_field(value, format_spec)


def farkle_code(roll: tuple[int, ...]) -> str:
    """The code of a roll that scores nothing: seed 000 calls one of five dice a ballot (French has the two words,
    English says farkle for both)."""
    return "ballot" if len(roll) == 5 else "farkle"


def told_event(game: Game, event: Event) -> Told:
    """What ``event`` of ``game`` says, worked out once for every telling of it (the transcript's
    ``transcript.<code>``, the log's ``log.<code>`` in the terminal and the pages): its code, and every value
    its line needs. The player is ``name`` with its seat (``name_seat``: a front end shows that seat's name);
    a turn has its number in the game (``turn``) and the player's own (``round``); a three-farkle penalty cut
    at 0 says so by its code (``penalty_cut``, ``penalty_none``: nothing left to lose); the winners are names
    with their seats (``winners``, ``winners_seats``)."""
    rules, seat, points = game.rules, event.player, event.points
    who: dict[str, Any] = {"name": game.players[seat], "name_seat": seat}
    score = event.scores[seat] if event.scores else 0
    match event.kind:
        case EventKind.TURN:
            return Told("turn", {**who, "turn": event.turn + 1, "round": event.turn // len(game.players) + 1,
                                 "score": score})
        case EventKind.ROLL:
            return Told("roll", {**who, "dice": event.dice})
        case EventKind.VALIDATED:
            return Told("validated", who)
        case EventKind.SET_ASIDE:
            return Told("set_aside", {**who, "dice": event.dice, "points": points, "total": event.turn_total})
        case EventKind.HOT_DICE:
            return Told("hot_dice", {**who, "n": rules.dice})
        case EventKind.FARKLE:
            code = farkle_code(event.dice)
            return Told(f"{code}_lost" if points else code, {**who, "points": points})
        case EventKind.BUST:
            return Told("bust_lost" if points else "bust", {**who, "points": points, "target": rules.target})
        case EventKind.PENALTY:
            cut = "_none" if points == 0 else "_cut" if points < rules.three_farkles else ""  # never "-0"
            return Told(f"penalty{cut}", {**who, "points": points, "penalty": rules.three_farkles, "score": score})
        case EventKind.BANK:
            return Told("bank", {**who, "points": points, "score": score})
        case EventKind.ENTRY_MISSED:
            return Told("entry_missed", {**who, "points": points, "entry": rules.entry})
        case EventKind.LAST_ROUND:
            return Told("last_round", {**who, "points": points})
        case EventKind.GAME_OVER:
            winners = () if game.outcome is None else game.outcome.winners
            return Told("game_over" if len(winners) == 1 else "game_over_shared",
                        {"winners": tuple(game.players[w] for w in winners), "winners_seats": winners})


# The library's sentences (the catalogue's English ``transcript.<code>`` is the same: tests/test_cli_words.py).
ENGLISH: Mapping[str, str] = {
    # a replay (hotdice.game.record.transcript)
    "rules": "Rules: {rules}",
    "players": "Players: {names:list}; {first} starts; mode {mode:mode}; {dice}",
    "players_limited": "Players: {names:list}; {first} starts; mode {mode:mode}; {dice}; {turns} turns each",
    "unseeded": "typed-in or live dice (no seed)",
    "seeded": "seeded dice, seed {seed}",
    "turn": "Turn {turn}: {name} (score {score})",
    "roll": "  rolls {dice:faces}",
    "roll_said": "  rolls {dice:faces}: {said:then}",
    "validated": "validates the set-aside dice",
    "set_aside": "sets aside {dice:faces} for {points} (turn total {total})",
    "hot_dice": "hot dice, all {n} back",
    "farkle": "farkle",
    "farkle_lost": "farkle, loses {points}",
    "ballot": "farkle",  # five dice that score nothing: English has one word for it, French two
    "ballot_lost": "farkle, loses {points}",
    "bust": "bust (every set-aside passes {target})",
    "bust_lost": "bust (every set-aside passes {target}), loses {points}",
    "penalty": "three farkles in a row, penalty {points} (score {score})",
    "penalty_cut": "three farkles in a row, penalty {points} (score {score})",  # cut at 0: the points it took
    "penalty_none": "three farkles in a row, penalty {points} (score {score})",
    "bank": "banks {points} (score {score})",
    "entry_missed": "stops at {points}, below the entry of {entry}: not recorded",
    "last_round": "reaches {points}: last round",
    "unfinished": "Unfinished ({acting}): {final:scores}",
    "ended_unfinished": "Ended unfinished: the key was revealed at {revealed:time}: {final:scores}",
    "dice_to_roll": "dice to roll",
    "to_play": "{name} to play",
    "game_over": "Game over ({why}): {winners:and} wins; {final:scores}",
    "game_over_shared": "Game over ({why}): {winners:and} share the win; {final:scores}",
    "why.target": "target of {target} reached",
    "why.exact": "exactly {target}",
    "why.five-ones": "five 1s in one roll",
    "why.turn-limit": "every player has played the turns",
    # a record that does not replay (hotdice.game.record.RecordError)
    "digest": "record corrupted: its digest does not match its contents",
    "cannot_set_up": "the game cannot be set up: {reason}",
    "roll_altered": "record altered: history line {line} ('{text}'): roll {roll} of turn {turn} is {expected:dice} "
    "with this seed",
    "line_refused": "history line {line} ('{text}'): {reason}",
    "line_bank_refused": "history line {line} ('{text}'): cannot bank: {reason}",
    "line_rewritten": "history line {line} ('{text}'): the engine writes it '{written}'",
    "result_altered": "record altered: it says {said}, but the game replays to {replayed}",
    "said_unfinished": "scores {scores:dash}, unfinished",
    "said_won": "scores {scores:dash}, won by player(s) {winners:list} ({end})",
    "end.target": "target",
    "end.exact": "exact",
    "end.five-ones": "five-ones",
    "end.turn-limit": "turn-limit",
    # a verification (hotdice.game.verify)
    "key_record": "dice key: {key} (from the record)",
    "key_given": "dice key: {key} (from --key)",
    "commitment_unchecked": "commitment: not checked (give the published one with --commitment HEX)",
    "commitment_ok": "commitment: SHA-256 of the key is {commitment}, as published",
    "reveal_unchecked": "reveal: not checked (the record does not say when its lines were played and its key "
    "revealed)",
    "reveal_ok": "reveal: every line was played before the dice key was revealed at {revealed:time}",
    "rolls": "rolls: all {rolls} rolls of the {turns} turns recomputed from the key, every face as recorded",
    "history": "history: all {actions} actions legal (replayed through the engine)",
    "result": "result: {final:scores}, {ending}, as recorded",
    "won_by": "won by {winners:and} ({end})",
    "ended_by_reveal": "unfinished: it ended when its dice key was revealed at {revealed:time}",
    "valid": "VALID: every roll of this game comes from the key, and the record is the game that was played",
    "fails": "does not verify: {reason}",
    "key_mismatch": "the record's dice key {record} is not the key given ({given})",
    "commitment_mismatch": "SHA-256 of the key is {actual}, not the commitment {wanted}",
    "after_reveal": "history line {line} ('{text}') was played at {played:time}, after the dice key was revealed at "
    "{revealed:time}: every roll was known by then",
    "plain": "{text}",
    # nothing to verify (hotdice.game.verify.VerifyError)
    "bad_key": "the key '{key}' is not hexadecimal bytes",
    "unfinished_record": "the record is of an unfinished game: only a finished game can be verified",
    "turn_limit_unreached": "the record says its game ended at its turn limit of {limit} turns, but its history "
    "plays {turns}",
    "bad_commitment": "the commitment '{commitment}' is not a SHA-256 in hex (64 hexadecimal digits)",
    "no_key": "the record holds no dice key: give the revealed key with --key HEX (games with live dice have no key "
    "and cannot be verified)",
    # a simulation that cannot be run (hotdice.sim.simulate.SimulationError) or a player spec that names nobody
    "sim_players": "a game has 1 to {most} players, not {n}",
    "sim_games": "--games must be at least 1, not {games}",
    "unknown_player": "unknown player '{spec}'; players are: {players}",
    "empty_player": "a player spec is empty; players are: {players}",
    "no_argument": "player '{spec}': {name} takes no argument",
    "bad_threshold": "player '{spec}': the bank threshold must be a whole number of points, 0 or more",
}

_ENGLISH_TELLING = Telling(ENGLISH.__getitem__)
