"""The game: whose turn, the scores, the turn in progress, what may be done, and how the game ends.

This module is the only place where the rules of play are enforced; front ends and computer players ask
it what is legal. Chance is explicit: after a ``roll`` action the game waits for dice
(:attr:`Game.dice_in_hand`), which the caller draws from an injected :mod:`hotdice.game.dice` source and gives
to :meth:`Game.apply_roll` — or :meth:`Game.play` does both.

A turn goes: roll → (farkle | set aside scoring dice) → roll again or bank → ... Decisions RULES.md leaves
to us are written where they are enforced. A player's whole choice, "set these aside, then roll or bank", is
one :class:`Decision`, applied whole or refused (:meth:`Game.apply_decision`); the state reads and writes as
one line (:meth:`Game.position`, :meth:`Game.from_position`).
"""

from __future__ import annotations

import copy
import enum
import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from hotdice.game.dice import DiceSource, rolls_with_probability
from hotdice.game.refusals import Code, Refusal, Refused, expect, expect_whole
from hotdice.game.rules import BelowEntry, End, HotDice, Rules, SetAsideRule
from hotdice.game.scoring import DiceError, Option, SetAside, combinations, parse_dice, scorer

__all__ = [
    "BANK",
    "CHANCE",
    "MAX_PLAYERS",
    "ROLL",
    "TERMINAL",
    "Action",
    "Actor",
    "BankAction",
    "Decision",
    "Event",
    "EventKind",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "Phase",
    "PositionError",
    "Roll",
    "RollAction",
    "RollOff",
    "Step",
    "Termination",
    "after_set_aside",
    "bank_records",
    "bank_refusal",
    "farkle_penalty",
    "needs_validation",
    "offered",
    "parse_action",
    "roll_off",
    "room_to_target",
    "starts_last_round",
    "wins_at_once",
]

MAX_PLAYERS = 8
_FACES = frozenset(range(1, 7))


class InvalidMoveError(Refused):
    """An action that cannot be read (``keep 7``, ``jump``) or dice that are not dice."""


class PositionError(Refused):
    """A position that does not read, or that no game under the rules reaches: :attr:`refusal` says which
    field breaks which bound."""


class IllegalMoveError(Refused):
    """A readable action that the rules forbid now: :attr:`refusal` says which rule. ``bank``: the refusal is
    why banking is not allowed (the sentence starts "cannot bank: ")."""

    def __init__(self, refusal: Refusal, *, bank: bool = False) -> None:
        super().__init__(refusal, f"cannot bank: {refusal}" if bank else None)
        self.bank = bank


class RollAction:
    """Roll the dice in hand."""

    _instance: RollAction | None = None

    def __new__(cls) -> RollAction:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "roll"

    def __repr__(self) -> str:
        return "ROLL"


class BankAction:
    """Add the turn total to the score and pass the dice."""

    _instance: BankAction | None = None

    def __new__(cls) -> BankAction:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "bank"

    def __repr__(self) -> str:
        return "BANK"


ROLL = RollAction()
BANK = BankAction()
Action = RollAction | BankAction | SetAside


def parse_action(text: str) -> Action:
    """Read ``roll``/``r``, ``bank``/``b``, or the dice to set aside: ``155``, ``keep 155``, ``k 1 5 5``."""
    expect(text, str, "text", InvalidMoveError)
    words = text.strip().lower()
    if words in ("roll", "r"):
        return ROLL
    if words in ("bank", "b"):
        return BANK
    for prefix in ("keep", "k"):
        rest = words[len(prefix) :]
        if words.startswith(prefix) and (rest[:1] in (" ", "") or rest[:1].isdigit()):
            words = rest
            break
    try:
        return SetAside.parse(words)
    except DiceError as exc:
        raise InvalidMoveError(Refusal(Code.NOT_AN_ACTION, {"text": text, "reason": exc.refusal})) from None


@dataclass(frozen=True)
class Roll:
    """The dice that came up for a roll, in the order they were rolled."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """One line of a game's history: a player's action, or the dice that came up.

    Written as the history has always been written (``roll``, ``dice 321133``, ``keep 11333``, ``bank``), so
    that records stay readable both ways.
    """

    move: Action | Roll

    @classmethod
    def parse(cls, text: str, max_dice: int = 6) -> Step:
        """Read a history line; actions are read as :func:`parse_action` reads them (``k 5 5`` too)."""
        expect(text, str, "text", InvalidMoveError)
        if text.startswith("dice "):
            return cls(Roll(parse_dice(text[len("dice ") :], max_dice)))
        return cls(parse_action(text))

    def __str__(self) -> str:
        move = self.move
        if isinstance(move, Roll):
            return "dice " + "".join(map(str, move.dice))
        if isinstance(move, SetAside):
            return f"keep {move}"
        return str(move)


@dataclass(frozen=True)
class Decision:
    """One whole choice of the player to act: set dice aside from the roll on the table (``set_aside``; None
    when no roll is on the table), then roll or bank. Written ``set aside 155, then roll``, ``roll``, ``bank``.

    It is the unit a player thinks in; :meth:`Game.apply_decision` applies it at once or not at all.
    """

    set_aside: SetAside | None
    then: RollAction | BankAction

    @classmethod
    def parse(cls, text: str) -> Decision:
        """Read ``roll``, ``bank``, or ``set aside 1 5 5, then roll`` (``keep 155 then bank`` too)."""
        expect(text, str, "text", InvalidMoveError)
        words = text.strip().lower()
        head, sep, tail = words.rpartition("then")
        if not sep:
            then = parse_action(words)
            if isinstance(then, SetAside):
                raise InvalidMoveError(Refusal(Code.THEN_MISSING, {"text": text}))
            return cls(None, then)
        head = head.strip().rstrip(",").strip()
        head = head[len("set aside"):] if head.startswith("set aside") else head
        set_aside, then = parse_action(head), parse_action(tail)
        if not isinstance(set_aside, SetAside) or isinstance(then, SetAside):
            raise InvalidMoveError(Refusal(Code.NOT_A_DECISION, {"text": text}))
        return cls(set_aside, then)

    def __str__(self) -> str:
        return str(self.then) if self.set_aside is None else f"set aside {self.set_aside}, then {self.then}"


class Actor(enum.Enum):
    """Who acts when no seat does: chance (dice are to be rolled) or nobody (the game is over)."""

    CHANCE = "chance"
    TERMINAL = "terminal"


CHANCE = Actor.CHANCE
TERMINAL = Actor.TERMINAL


class Phase(enum.Enum):
    DECIDE = "decide"  # the player rolls, or banks where allowed (at the start of a turn: rolls)
    CHANCE = "chance"  # dice are being rolled: the caller gives them to apply_roll
    SET_ASIDE = "set-aside"  # a scoring roll is on the table: the player sets aside dice
    OVER = "over"


class Termination(enum.Enum):
    TARGET = "target"  # last round played, or the first to reach the target
    EXACT = "exact"  # the exact target was hit
    FIVE_ONES = "five-ones"  # five 1s in one roll
    TURN_LIMIT = "turn-limit"  # every player has played the turns of the mode


@dataclass(frozen=True)
class Outcome:
    """Who won and why. Several winners share the win."""

    winners: tuple[int, ...]
    termination: Termination
    scores: tuple[int, ...]


class EventKind(enum.Enum):
    TURN = "turn"  # a player's turn starts
    ROLL = "roll"  # dice were rolled
    VALIDATED = "validated"  # a scoring roll validated the triple or full hand before it (validate=yes)
    SET_ASIDE = "set-aside"
    HOT_DICE = "hot-dice"  # every die has scored: all of them come back
    FARKLE = "farkle"  # nothing scored: the turn total is lost
    BUST = "bust"  # every set-aside on offer would pass an exact target: the turn total is lost
    PENALTY = "penalty"  # three farkles in a row
    BANK = "bank"
    ENTRY_MISSED = "entry-missed"  # stopped below the entry: the points are not recorded
    LAST_ROUND = "last-round"  # someone reached the target: everyone else gets one more turn
    GAME_OVER = "game-over"


class Event(NamedTuple):
    """Something that happened, for logs, animations and statistics, with the scores it left."""

    kind: EventKind
    player: int
    turn: int
    points: int = 0  # points of a set-aside, bank, penalty or lost turn total
    dice: tuple[int, ...] = ()  # a roll's, a set-aside's, or the roll that farkled
    scores: tuple[int, ...] = ()  # every seat's score after the event
    turn_total: int = 0  # the turn total after the event (0 once the turn is banked, lost or over)


# The events after which the turn goes on: the turn total they leave is the game's.
_WITHIN_TURN = frozenset({EventKind.ROLL, EventKind.VALIDATED, EventKind.SET_ASIDE, EventKind.HOT_DICE})


@dataclass
class _Seat:
    name: str
    score: int = 0
    entered: bool = False
    farkles_in_row: int = 0
    turns: int = 0


@dataclass
class Game:
    """One game in progress. Create it, then alternate :meth:`apply` (players) and :meth:`apply_roll` (chance)."""

    rules: Rules
    players: Sequence[str] = ("Player",)
    first: int = 0
    turn_limit: int | None = None  # turns per player (solo ten turns, daily, challenge)
    events: list[Event] = field(default_factory=list, init=False)
    history: list[Step] = field(default_factory=list, init=False)  # actions and rolls, in order

    def __post_init__(self) -> None:
        expect(self.rules, Rules, "rules")
        expect(self.players, (list, tuple), "players")
        for name in self.players:
            expect(name, str, "a player's name")
        if not 1 <= len(self.players) <= MAX_PLAYERS:
            raise Refused(Refusal(Code.PLAYER_COUNT, {"max": MAX_PLAYERS, "players": len(self.players)}))
        expect_whole(self.first, "first", 0, len(self.players) - 1)
        if self.turn_limit is not None:
            expect_whole(self.turn_limit, "turn_limit", 1)
        self.players = tuple(self.players)
        self._scorer = scorer(self.rules)
        self._seats = [_Seat(name, entered=self.rules.entry == 0) for name in self.players]
        self.current = self.first
        self.turn = 0  # turns played in the game so far, all players together
        self.rolls_this_turn = 0
        self.phase = Phase.DECIDE
        self.turn_total = 0
        self.dice_in_hand = self.rules.dice  # how many dice the next roll has
        self.roll: tuple[int, ...] | None = None  # the roll on the table, as rolled
        self._offered: tuple[Option, ...] = ()  # its legal set-asides
        self.set_asides: list[SetAside] = []  # this turn's set-asides
        self.must_validate = False  # validate=yes: a triple or full hand awaits a scoring roll
        self.hot_dice = False  # every die has scored: all of them are back in hand
        self.last_round_by: int | None = None
        self.outcome: Outcome | None = None
        self.start_position: str | None = None  # the position the game was set up from (None: its beginning)
        self._event(EventKind.TURN)

    def __getstate__(self) -> dict[str, object]:
        """A pickled game (a saved state, an OpenSpiel state) carries its rules, not the scoring tables they
        build (a megabyte), which :meth:`__setstate__` finds again."""
        state = dict(self.__dict__)
        del state["_scorer"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._scorer = scorer(self.rules)

    def clone(self) -> Game:
        """An independent copy of the game as it stands, history and events included: cheap, no replay."""
        twin = object.__new__(type(self))  # as copy.copy, without the pickling path (__getstate__)
        twin.__dict__.update(self.__dict__)
        twin.events = list(self.events)
        twin.history = list(self.history)
        twin.set_asides = list(self.set_asides)
        twin._seats = [copy.copy(s) for s in self._seats]
        return twin

    def root(self) -> Game:
        """The game before its history: a new game, or the position it was set up from."""
        if self.start_position is None:
            return Game(self.rules, self.players, self.first, self.turn_limit)
        return Game.from_position(self.rules, self.start_position, self.players)

    def undone(self) -> Game:
        """The game before its last move, replayed from :meth:`root`: the last dice that came up, or else the
        last decision (a set-aside with the roll or bank after it). A game with no history is returned as is.

        The score pad's undo: the player corrects a mistyped roll or a wrong choice; nothing is unapplied,
        the shorter history is played again, so the result is a game the rules allow.
        """
        steps = list(self.history)
        last = steps.pop() if steps else None
        if last is not None and last.move in (ROLL, BANK) and steps and isinstance(steps[-1].move, SetAside):
            steps.pop()  # the set-aside of the same decision
        game = self.root()
        for step in steps:
            if isinstance(step.move, Roll):
                game.apply_roll(step.move.dice)
            else:
                game.apply(step.move)
        return game

    # -- the position, as text -----------------------------------------------------------------

    def position(self) -> str:
        """The state of play in one line, read back by :meth:`from_position` (the history is not in it).

        Eight fields, separated by spaces; ``-`` is "none"::

            SEATS SEAT TOTAL/HAND ROLL PENDING LAST CLOCK END
            3000,4500~,0x2 1 350/2 - v - 12.1/10 -

        - SEATS: each seat's banked score, seat 0 first, separated by commas; ``~`` after it: not entered
          yet; ``xN``: N farkles in a row.
        - SEAT: the seat whose turn it is (from 0); at the end, the seat that played last.
        - TOTAL/HAND: the turn total and the dice in hand. Hot dice (every die back after a full set-aside)
          is a turn total with every die in hand: it needs no field.
        - ROLL: ``-`` the player rolls or banks (or the game is over); ``?`` dice are to be rolled (chance);
          else the roll on the table, faces as rolled: the player sets dice aside from it.
        - PENDING: ``v`` a triple or full hand awaits its validating roll (validate=yes), else ``-``.
        - LAST: the seat that started the last round by reaching the target (end=last-round), else ``-``.
        - CLOCK: ``TURN.ROLLS``, turns played in the game (all seats together) and rolls in this turn, which
          number the dice a :mod:`hotdice.game.dice` source draws; ``/LIMIT``: the turns each seat plays, if limited.
          Who started and each seat's turns played follow from the turn and the seat.
        - END: how the game ended (``target``, ``exact``, ``five-ones``, ``turn-limit``), else ``-``.
        """
        seats = ",".join(f"{s.score}{'' if s.entered else '~'}{f'x{s.farkles_in_row}' if s.farkles_in_row else ''}"
                         for s in self._seats)
        roll = "?" if self.phase is Phase.CHANCE else "-" if self.roll is None else "".join(map(str, self.roll))
        last = "-" if self.last_round_by is None else str(self.last_round_by)
        limit = "" if self.turn_limit is None else f"/{self.turn_limit}"
        end = "-" if self.outcome is None else self.outcome.termination.value
        return (f"{seats} {self.current} {self.turn_total}/{self.dice_in_hand} {roll} "
                f"{'v' if self.must_validate else '-'} {last} {self.turn}.{self.rolls_this_turn}{limit} {end}")

    @classmethod
    def from_position(cls, rules: Rules, text: str, players: Sequence[str] | None = None) -> Game:
        """The game at a position written by :meth:`position` (its grammar is there), under ``rules``, with an
        empty history; ``players``: the names (default Player 1, Player 2...).

        A position is accepted only if some game under ``rules`` reaches it; otherwise :class:`PositionError`
        says which field breaks which bound (:meth:`_unreachable` lists the conditions)."""
        expect(rules, Rules, "rules", PositionError)
        if players is not None:
            expect(players, (list, tuple), "players", PositionError)
        if not isinstance(text, str):
            raise PositionError(Refusal(Code.POSITION_FIELDS, {"text": str(text), "fields": 0}))
        words = text.split()
        if len(words) != 8:
            raise PositionError(Refusal(Code.POSITION_FIELDS, {"text": text, "fields": len(words)}))
        seats_w, seat_w, hand_w, roll_w, pending_w, last_w, clock_w, end_w = words
        seats = [_field(_SEAT, w, "SEATS") for w in seats_w.split(",")]
        current = int(_field(_NUMBER, seat_w, "SEAT")[0])
        total, hand = map(int, _field(_HAND, hand_w, "TOTAL/HAND"))
        last = None if last_w == "-" else int(_field(_NUMBER, last_w, "LAST")[0])
        turn_w, rolls_w, limit_w = _field(_CLOCK, clock_w, "CLOCK")
        turn, rolls = int(turn_w), int(rolls_w)
        limit = None if limit_w is None else int(limit_w)
        if pending_w not in ("-", "v"):
            raise PositionError(Refusal(Code.POSITION_FIELD, {"field": "PENDING", "text": pending_w}))
        try:
            termination = None if end_w == "-" else Termination(end_w)
        except ValueError:
            raise PositionError(Refusal(Code.POSITION_FIELD, {"field": "END", "text": end_w})) from None
        try:
            roll = None if roll_w in ("-", "?") else parse_dice(roll_w, rules.dice)
        except ValueError:
            raise PositionError(Refusal(Code.POSITION_FIELD, {"field": "ROLL", "text": roll_w})) from None
        if limit is not None and limit < 1:
            raise PositionError(Refusal(Code.POSITION_FIELD, {"field": "CLOCK", "text": clock_w}))
        phase = (Phase.OVER if termination is not None else Phase.CHANCE if roll_w == "?"
                 else Phase.DECIDE if roll is None else Phase.SET_ASIDE)
        n = len(seats)
        if not 1 <= n <= MAX_PLAYERS:
            raise PositionError(Refusal(Code.POSITION_SEATS, {"seats": n, "max": MAX_PLAYERS}))
        for name, named in (("SEAT", current), ("LAST", last)):
            if named is not None and named >= n:
                raise PositionError(Refusal(Code.POSITION_NO_SEAT, {"field": name, "seat": named, "last": n - 1}))
        if not 1 <= hand <= rules.dice:
            raise PositionError(Refusal(Code.POSITION_HAND, {"hand": hand, "dice": rules.dice}))
        first = (current - turn + (phase is Phase.OVER)) % n
        names = tuple(players) if players is not None else ("Player",) if n == 1 else tuple(
            f"Player {k + 1}" for k in range(n))
        if len(names) != n:
            raise PositionError(Refusal(Code.POSITION_NAMES, {"names": len(names), "seats": n}))
        game = cls(rules, names, first, limit)
        game.events.clear()
        for k, (seat, (score, not_entered, farkles)) in enumerate(zip(game._seats, seats, strict=True)):
            seat.score, seat.entered = int(score), not not_entered
            seat.farkles_in_row = int(farkles or 0)
            seat.turns = len(range((k - first) % n, turn, n))
        game.current, game.turn, game.rolls_this_turn, game.phase = current, turn, rolls, phase
        game.turn_total, game.dice_in_hand, game.roll = total, hand, roll
        game.must_validate = pending_w == "v"
        game.hot_dice = phase in (Phase.DECIDE, Phase.CHANCE) and total > 0 and hand == rules.dice
        game.last_round_by = last
        if roll is not None:
            game._offered = () if game._scorer.wins_game(roll) else offered(
                game.rules, roll, room_to_target(game.rules, game._seats[game.current].score, game.turn_total))
        if termination is not None:
            game.outcome = Outcome((current,) if termination is Termination.FIVE_ONES else game._leaders(),
                                   termination, game.scores)
        refusal = game._unreachable()
        if refusal is not None:
            raise PositionError(refusal)
        game.start_position = game.position()
        return game

    def _unreachable(self) -> Refusal | None:
        """Why the state set up by :meth:`from_position` is one no game under these rules reaches, or None.

        The conditions, in RULES.md's terms (each refused with its own code):

        - every score is a multiple of the rules' smallest score (the greatest common divisor of what the
          combinations score, and of the three-farkle penalty), and so is the turn total;
        - a seat not entered has no points, and only rules with an entry have seats not entered; a seat that
          has entered holds at least the entry, unless the three-farkle penalty can take points away;
        - a seat with points, or with farkles in a row, has played a turn; it has no more farkles in a row than
          turns played, and fewer than three under the three-farkle penalty (the count restarts there);
        - no seat has played more turns than the game's turn limit, and the seat to act has turns left;
        - with the game on, a score at or past the target has started the last round (end=last-round) — under
          end=first it would have won, under end=exact reaching it wins and passing it is a bust; the seat that
          started the last round has reached the target;
        - a game that is over ended as these rules end games: ``target`` with a seat at the target (under
          end=last-round, after the last round, ending with the seat before the one that started it),
          ``exact`` with the seat that played last at exactly the target, ``five-ones`` under five_1s_win,
          ``turn-limit`` with every seat's turns played; and it has no turn in progress;
        - a validation is pending only under validate=yes, after a set-aside, before the next roll;
        - under end=exact the turn total leaves the seat below the target;
        - a roll on the table has the dice in hand, scores, and is not the first roll of a turn unless every
          die is in hand; a turn without a roll yet has every die in hand and no points, and only then.
        """
        r = self.rules
        unit = _smallest_score(r)
        for k, seat in enumerate(self._seats):
            if seat.score % unit:
                return Refusal(Code.POSITION_UNIT, {"field": "SEATS", "value": seat.score, "unit": unit})
            if not seat.entered and r.entry == 0:
                return Refusal(Code.POSITION_NO_ENTRY, {"seat": k})
            if not seat.entered and seat.score:
                return Refusal(Code.POSITION_NOT_ENTERED, {"seat": k, "score": seat.score})
            if seat.entered and seat.score < r.entry and not r.three_farkles:
                return Refusal(Code.POSITION_BELOW_ENTRY, {"seat": k, "score": seat.score, "entry": r.entry})
            played = seat.turns
            if not played and (seat.score or seat.farkles_in_row or (seat.entered and r.entry)):
                return Refusal(Code.POSITION_NO_TURN, {"seat": k, "score": seat.score,
                                                       "farkles": seat.farkles_in_row})
            most = min(played, 2) if r.three_farkles else played
            if seat.farkles_in_row > most:
                return Refusal(Code.POSITION_FARKLES, {"seat": k, "farkles": seat.farkles_in_row, "max": most})
            if self.turn_limit is not None and seat.turns > self.turn_limit:
                return Refusal(Code.POSITION_TURNS, {"seat": k, "turns": seat.turns, "limit": self.turn_limit})
        if self.turn_total % unit:
            return Refusal(Code.POSITION_UNIT, {"field": "TOTAL/HAND", "value": self.turn_total, "unit": unit})
        if self.last_round_by is not None and (r.end is not End.LAST_ROUND
                                               or self.scores[self.last_round_by] < r.target):
            return Refusal(Code.POSITION_LAST_ROUND, {"seat": self.last_round_by, "target": r.target})
        if self.phase is Phase.OVER:
            return self._unreachable_end()
        for k, score in enumerate(self.scores):
            if score >= r.target and (self.last_round_by is None or r.end is not End.LAST_ROUND):
                return Refusal(Code.POSITION_PAST_TARGET, {"seat": k, "score": score, "target": r.target})
        if self.turn_limit is not None and self._seats[self.current].turns >= self.turn_limit:
            seat = self._seats[self.current]
            return Refusal(Code.POSITION_TURNS, {"seat": self.current, "turns": seat.turns + 1,
                                                 "limit": self.turn_limit})
        if self.must_validate and not (r.validate and self.turn_total and self.phase is not Phase.SET_ASIDE):
            return Refusal(Code.POSITION_PENDING)
        room = room_to_target(r, self.scores[self.current], self.turn_total)
        if room is not None and room <= 0:
            return Refusal(Code.POSITION_TURN_TOTAL, {"target": r.target})
        if self.phase is Phase.SET_ASIDE:
            assert self.roll is not None
            if len(self.roll) != self.dice_in_hand:
                return Refusal(Code.POSITION_ROLL_DICE, {"roll": self.roll, "rolled": len(self.roll),
                                                         "hand": self.dice_in_hand})
            if not self._offered or not self.rolls_this_turn:
                return Refusal(Code.POSITION_ROLL_ENDS, {"roll": self.roll})
            if not self.turn_total and self.dice_in_hand != r.dice:
                return Refusal(Code.POSITION_FIRST_ROLL)
            return None
        if (self.turn_total == 0) != (self.rolls_this_turn == 0) or (
                not self.turn_total and self.dice_in_hand != r.dice):
            return Refusal(Code.POSITION_TURN_START)
        return None

    def _unreachable_end(self) -> Refusal | None:
        """Why a finished position is one these rules cannot end, or None (see :meth:`_unreachable`)."""
        r = self.rules
        if self.turn_total or self.dice_in_hand != r.dice or self.rolls_this_turn or self.must_validate:
            return Refusal(Code.POSITION_OVER_TURN)
        assert self.outcome is not None
        end, scores, last = self.outcome.termination, self.scores, self.current
        others = [s for k, s in enumerate(scores) if k != last]
        if end is Termination.TARGET:
            if r.end is End.FIRST:
                ends = scores[last] >= r.target and all(s < r.target for s in others)
            elif r.end is End.LAST_ROUND:
                ends = (self.last_round_by is not None
                        and (last + 1) % len(scores) == self.last_round_by)
            else:
                ends = False
        elif end is Termination.EXACT:
            ends = r.end is End.EXACT and scores[last] == r.target and all(s < r.target for s in others)
        elif end is Termination.FIVE_ONES:
            ends = r.five_1s_win and all(s < r.target or r.end is End.LAST_ROUND for s in scores)
        else:
            ends = (self.turn_limit is not None and all(s.turns == self.turn_limit for s in self._seats)
                    and (r.end is End.LAST_ROUND or all(s < r.target for s in scores)))
        if not ends:
            return Refusal(Code.POSITION_END, {"end": end.value})
        return None

    # -- what a player sees ------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self._seats)

    @property
    def entered(self) -> tuple[bool, ...]:
        return tuple(s.entered for s in self._seats)

    @property
    def farkles_in_row(self) -> tuple[int, ...]:
        return tuple(s.farkles_in_row for s in self._seats)

    @property
    def turns_played(self) -> tuple[int, ...]:
        return tuple(s.turns for s in self._seats)

    @property
    def to_act(self) -> int | Actor:
        """Who acts now: the seat of the player, :data:`CHANCE` while dice are to be rolled
        (:attr:`dice_in_hand`), :data:`TERMINAL` once the game is over."""
        if self.phase is Phase.CHANCE:
            return CHANCE
        return TERMINAL if self.phase is Phase.OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def options(self) -> tuple[Option, ...]:
        """The legal set-asides of the roll on the table (:func:`offered`)."""
        return self._offered if self.phase is Phase.SET_ASIDE else ()

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.SET_ASIDE:
            return [o.set_aside for o in self.options()]
        if self.phase is Phase.DECIDE:
            return [ROLL, BANK] if self.why_not_bank() is None else [ROLL]
        return []

    def legal_decisions(self) -> list[Decision]:
        """Every decision the player to act may make now: exactly those :meth:`apply_decision` accepts. A
        set-aside that reaches an exact target wins at once, so either ``then`` is accepted after it."""
        if self.phase is Phase.SET_ASIDE:
            out = []
            for option in self._offered:
                out.append(Decision(option.set_aside, ROLL))
                if self.why_not_bank_after(option) is None:
                    out.append(Decision(option.set_aside, BANK))
            return out
        if self.phase is Phase.DECIDE:
            return [Decision(None, ROLL)] + ([Decision(None, BANK)] if self.why_not_bank() is None else [])
        return []

    def why_not_decision(self, decision: Decision) -> Refusal | None:
        """Why :meth:`apply_decision` would refuse ``decision`` now, or None if it would apply it."""
        expect(decision, Decision, "decision", InvalidMoveError)
        refused = self._refuse_decision(decision)
        return None if refused is None else refused.refusal

    def _refuse_decision(self, decision: Decision) -> IllegalMoveError | None:
        if self.outcome is not None:
            return IllegalMoveError(Refusal(Code.GAME_OVER))
        set_aside = decision.set_aside
        if set_aside is None:
            if decision.then is not BANK:
                return None if self.phase is Phase.DECIDE else IllegalMoveError(self._not_deciding())
            reason = self.why_not_bank()
        else:
            option = next((o for o in self.options() if o.set_aside == set_aside), None)
            if option is None:
                refusal = self.why_not_set_aside(set_aside)
                assert refusal is not None  # not among the options, so not offered
                return IllegalMoveError(refusal)
            reason = self.why_not_bank_after(option) if decision.then is BANK else None
        return None if reason is None else IllegalMoveError(reason, bank=True)

    def chance_outcomes(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """While dice are to be rolled: every distinct roll of the dice in hand (faces sorted) with its exact
        probability, a Fraction (the ordered rolls giving it over 6**n); they sum to 1. :meth:`apply_roll`
        takes the faces in any order."""
        if self.phase is not Phase.CHANCE:
            raise IllegalMoveError(Refusal(Code.NOT_ROLLING))
        return rolls_with_probability(self.dice_in_hand)

    def why_not_set_aside(self, set_aside: SetAside) -> Refusal | None:
        """Why these dice may not be set aside now, or None if they may."""
        expect(set_aside, SetAside, "set_aside", InvalidMoveError)
        if self.phase is not Phase.SET_ASIDE or self.roll is None:
            return Refusal(Code.NO_ROLL)
        if any(o.set_aside == set_aside for o in self._offered):
            return None
        return self._why_not_offered(set_aside, self.roll)

    def why_not_bank_after(self, option: Option) -> Refusal | None:
        """Why banking right after setting ``option`` aside would be refused, or None if it would be allowed
        (or if the set-aside wins at once by reaching an exact target): what a front end shows beside each
        choice before the player makes it."""
        expect(option, Option, "option", InvalidMoveError)
        seat = self._seats[self.current]
        room = room_to_target(self.rules, seat.score, self.turn_total)
        if room is not None and option.points == room:
            return None
        _, hot, validate = after_set_aside(self.rules, option)
        return bank_refusal(self.rules, score=seat.score, turn_total=self.turn_total + option.points,
                            entered=seat.entered, hot_dice=hot, must_validate=validate)

    def why_not_bank(self) -> Refusal | None:
        """Why banking is not allowed now, or None if it is."""
        if self.phase is not Phase.DECIDE:
            return self._not_deciding()
        seat = self._seats[self.current]
        return bank_refusal(self.rules, score=seat.score, turn_total=self.turn_total, entered=seat.entered,
                            hot_dice=self.hot_dice, must_validate=self.must_validate)

    # -- acting --------------------------------------------------------------------------------

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Apply a player's action; an unreadable one raises InvalidMoveError, a forbidden one IllegalMoveError.

        ``player``, when given, is who sends the action (front ends with several people): it must be the
        player whose turn it is.
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self.outcome is not None:
            raise IllegalMoveError(Refusal(Code.GAME_OVER))
        self._check_sender(player)
        if action is ROLL:
            if self.phase is not Phase.DECIDE:
                raise IllegalMoveError(self._not_deciding())
            self.phase = Phase.CHANCE
            self.history.append(Step(ROLL))
        elif action is BANK:
            reason = self.why_not_bank()
            if reason is not None:
                raise IllegalMoveError(reason, bank=True)
            self.history.append(Step(BANK))
            self._bank()
        elif isinstance(action, SetAside):
            self._set_aside(action)
        else:
            raise InvalidMoveError(Refusal(Code.UNKNOWN_ACTION, {"action": repr(action)}))

    def apply_decision(self, decision: Decision | str, player: int | None = None) -> None:
        """Apply a whole decision (the set-aside, then the roll or the bank), or refuse it before anything
        changes: a bank refused after a legal set-aside leaves the game as it was. After a roll the game waits
        for its dice, as after :meth:`apply`. ``player``: as for :meth:`apply`."""
        if isinstance(decision, str):
            decision = Decision.parse(decision)
        expect(decision, Decision, "decision", InvalidMoveError)
        if self.outcome is None:
            self._check_sender(player)
        refused = self._refuse_decision(decision)
        if refused is not None:
            raise refused
        turn = self.turn
        if decision.set_aside is not None:
            self._set_aside(decision.set_aside)
            if self.turn != turn:
                return  # the set-aside reached the exact target: the game is won, nothing follows
        self.apply(decision.then)

    def apply_roll(self, dice: Iterable[int]) -> None:
        """The dice of the roll the player asked for: exactly :attr:`dice_in_hand` faces from 1 to 6."""
        if self.phase is not Phase.CHANCE:
            raise IllegalMoveError(Refusal(Code.NOT_ROLLING))
        roll = tuple(dice) if isinstance(dice, Iterable) and not isinstance(dice, (str, bytes)) else dice
        if not isinstance(roll, tuple) or not all(type(d) is int for d in roll) or not _FACES.issuperset(roll):
            try:
                roll = parse_dice(roll, self.rules.dice)
            except DiceError as exc:
                raise InvalidMoveError(exc.refusal) from None
        if len(roll) != self.dice_in_hand:
            raise InvalidMoveError(Refusal(Code.DICE_COUNT, {"given": len(roll), "rolled": self.dice_in_hand}))
        self.history.append(Step(Roll(roll)))
        self.roll = roll
        self.rolls_this_turn += 1
        self.hot_dice = False
        self._event(EventKind.ROLL, dice=roll)
        if self._scorer.wins_game(roll):
            self._end_turn(Termination.FIVE_ONES)
            return
        if self._scorer.is_farkle(roll):
            self._farkle()
            return
        if self.must_validate:
            self.must_validate = False
            self._event(EventKind.VALIDATED)
        self._offered = offered(self.rules, roll,
                                room_to_target(self.rules, self._seats[self.current].score, self.turn_total))
        if not self._offered:
            self._event(EventKind.BUST, points=self.turn_total)
            self._seats[self.current].farkles_in_row = 0  # a bust is not a farkle (our decision)
            self._end_turn()
            return
        self.phase = Phase.SET_ASIDE

    def play(self, action: Action | Decision | str, dice: DiceSource) -> None:
        """Apply an action or a decision and, if it rolls, the dice drawn for it from ``dice``."""
        expect(dice, DiceSource, "dice", InvalidMoveError)
        if isinstance(action, Decision):
            self.apply_decision(action)
        else:
            self.apply(action)
        if self.phase is Phase.CHANCE:
            self.apply_roll(dice.roll(self.dice_in_hand, self.turn, self.rolls_this_turn))

    # -- the steps of a turn -------------------------------------------------------------------

    def _set_aside(self, set_aside: SetAside) -> None:
        if self.phase is not Phase.SET_ASIDE or self.roll is None:
            raise IllegalMoveError(Refusal(Code.NO_ROLL))
        option = next((o for o in self._offered if o.set_aside == set_aside), None)
        if option is None:
            raise IllegalMoveError(self._why_not_offered(set_aside, self.roll))
        self.history.append(Step(set_aside))
        self.turn_total += option.points
        self.set_asides.append(set_aside)
        self.roll = None
        self.dice_in_hand, hot, validate = after_set_aside(self.rules, option)
        self._event(EventKind.SET_ASIDE, points=option.points, dice=tuple(set_aside))
        if validate:
            self.must_validate = True
        if hot:
            self.hot_dice = True
            self._event(EventKind.HOT_DICE)
        self.phase = Phase.DECIDE
        seat = self._seats[self.current]
        if room_to_target(self.rules, seat.score, self.turn_total) == 0:
            # Reaching the exact target wins at once, whatever a full hand, a validation or min_bank
            # would otherwise ask (RULES.md).
            self._bank()

    def _why_not_offered(self, set_aside: SetAside, roll: tuple[int, ...]) -> Refusal:
        if not set_aside:
            return Refusal(Code.EMPTY_SET_ASIDE)
        dice = {"keep": tuple(set_aside)}
        for face in set(set_aside):
            if set_aside.count(face) > roll.count(face):
                return Refusal(Code.NOT_IN_ROLL, {**dice, "roll": roll})
        if self._scorer.score(set_aside) is None:
            return Refusal(Code.NOT_SCORING, dice)
        if self._scorer.option_for(roll, set_aside) is None:
            return Refusal(Code.EVERY_TRIPLE, dice)
        if self.rules.set_aside is SetAsideRule.ALL:
            return Refusal(Code.SET_ASIDE_ALL, dice)
        return Refusal(Code.WOULD_PASS_TARGET, {**dice, "target": self.rules.target})

    def _bank(self) -> None:
        seat = self._seats[self.current]
        r = self.rules
        won = None
        if not bank_records(r, entered=seat.entered, turn_total=self.turn_total):
            self._event(EventKind.ENTRY_MISSED, points=self.turn_total)
        else:
            seat.score += self.turn_total
            seat.entered = True
            self._event(EventKind.BANK, points=self.turn_total)
            won = wins_at_once(r, seat.score)
            if self.last_round_by is None and starts_last_round(r, seat.score):
                self.last_round_by = self.current
                if len(self._seats) > 1:  # alone (a race), nobody plays a last round: the game is over
                    self._event(EventKind.LAST_ROUND, points=seat.score)
        seat.farkles_in_row = 0
        self._end_turn(won)

    def _farkle(self) -> None:
        seat = self._seats[self.current]
        self._event(EventKind.FARKLE, points=self.turn_total, dice=self.roll or ())
        seat.farkles_in_row += 1
        lost = farkle_penalty(self.rules, score=seat.score, farkles_in_row=seat.farkles_in_row)
        if lost is not None:
            seat.score -= lost
            seat.farkles_in_row = 0  # the count restarts after a penalty
            self._event(EventKind.PENALTY, points=lost)
        self._end_turn()

    def _end_turn(self, won: Termination | None = None) -> None:
        """Close the current player's turn; ``won`` says the player has just won at once."""
        n = len(self._seats)
        self._seats[self.current].turns += 1
        self.turn += 1
        self.turn_total = 0
        self.dice_in_hand = self.rules.dice
        self.roll = None
        self.set_asides = []
        self.must_validate = False
        self.hot_dice = False
        self.rolls_this_turn = 0
        if won is not None:
            self._finish((self.current,), won)
            return
        nxt = (self.current + 1) % n
        if self.turn_limit is not None and all(s.turns >= self.turn_limit for s in self._seats):
            self._finish(self._leaders(), Termination.TURN_LIMIT)
            return
        if self.last_round_by is not None and nxt == self.last_round_by:
            self._finish(self._leaders(), Termination.TARGET)
            return
        self.current = nxt
        self.phase = Phase.DECIDE
        self._event(EventKind.TURN)

    def _finish(self, winners: tuple[int, ...], termination: Termination) -> None:
        self.phase = Phase.OVER
        self.outcome = Outcome(winners, termination, self.scores)
        self._event(EventKind.GAME_OVER)

    # -- helpers -------------------------------------------------------------------------------

    def _check_sender(self, player: int | None) -> None:
        if player is not None:
            expect(player, int, "player", InvalidMoveError)
        if player is not None and player != self.current:
            # Each name comes with its seat (``<name>_seat``): a front end words a seat nobody named in its language.
            current = {"current": self.players[self.current], "current_seat": self.current}
            if 0 <= player < len(self.players):
                raise IllegalMoveError(Refusal(Code.NOT_YOUR_TURN, {"player": self.players[player],
                                                                    "player_seat": player, **current}))
            raise IllegalMoveError(Refusal(Code.NO_SUCH_PLAYER, {"seat": player, **current}))

    def _leaders(self) -> tuple[int, ...]:
        best = max(s.score for s in self._seats)
        return tuple(i for i, s in enumerate(self._seats) if s.score == best)

    def _not_deciding(self) -> Refusal:
        if self.phase is Phase.SET_ASIDE:
            return Refusal(Code.SET_ASIDE_FIRST)
        if self.phase is Phase.CHANCE:
            return Refusal(Code.ROLLING)
        return Refusal(Code.GAME_OVER)

    def _event(self, kind: EventKind, points: int = 0, dice: tuple[int, ...] = ()) -> None:
        turn_total = self.turn_total if kind in _WITHIN_TURN else 0
        self.events.append(Event(kind, self.current, self.turn, points, dice, self.scores, turn_total))


def bank_refusal(
    rules: Rules, *, score: int, turn_total: int, entered: bool, hot_dice: bool, must_validate: bool
) -> Refusal | None:
    """Why a player who has just set dice aside may not bank, or None if they may.

    A pure function of the turn so that computer players and solvers ask the very rule the game enforces.
    """
    r = rules
    if turn_total == 0:
        return Refusal(Code.ROLL_FIRST)
    if hot_dice and r.hot_dice is HotDice.MUST:
        return Refusal(Code.HOT_DICE_MUST_ROLL)
    if must_validate:
        return Refusal(Code.MUST_VALIDATE)
    if not entered and turn_total < r.entry:
        if r.below_entry is BelowEntry.ROLL:
            return Refusal(Code.BELOW_ENTRY, {"entry": r.entry})
        return None  # below_entry=lost: the player may stop; the points will not be recorded
    if turn_total < r.min_bank:
        return Refusal(Code.MIN_BANK, {"min_bank": r.min_bank})
    after = score + turn_total
    if r.rule_4900 and r.target - 100 <= after < r.target:
        return Refusal(Code.RULE_4900, {"low": r.target - 100, "high": r.target - 1})
    return None


def offered(rules: Rules, roll: Iterable[int], room: int | None = None) -> tuple[Option, ...]:
    """The set-asides a player is offered from ``roll``, best first; none on a farkle.

    set_aside=all offers one: every scoring die of the roll, at their best partition (the set-aside with the
    most dice). Those adding more than ``room`` points (:func:`room_to_target`, end=exact) are not offered,
    so a turn busts when none is left. Computer players and solvers ask this, not the scorer.
    """
    every = scorer(rules).options(roll)
    if rules.set_aside is SetAsideRule.ALL and every:
        every = (max(every, key=lambda o: len(o.set_aside)),)
    return every if room is None else tuple(o for o in every if o.points <= room)


def needs_validation(rules: Rules, option: Option) -> bool:
    """validate=yes: setting aside a triple, or a full hand, must be validated by a scoring roll before a bank."""
    dice = option.set_aside
    return rules.validate and (option.dice_left == 0 or any(dice.count(f) >= 3 for f in set(dice)))


def after_set_aside(rules: Rules, option: Option) -> tuple[int, bool, bool]:
    """(dice in hand, hot dice, must validate) right after setting ``option`` aside: all the dice come back
    after a full hand (hot dice)."""
    hot = option.dice_left == 0
    return (rules.dice if hot else option.dice_left), hot, needs_validation(rules, option)


def wins_at_once(rules: Rules, score: int) -> Termination | None:
    """Whether a bank that brings a score to ``score`` wins at once: end=first reaches the target,
    end=exact hits it (under end=last-round, reaching it starts the last round instead)."""
    if rules.end is End.FIRST and score >= rules.target:
        return Termination.TARGET
    if rules.end is End.EXACT and score == rules.target:
        return Termination.EXACT
    return None


def starts_last_round(rules: Rules, score: int) -> bool:
    """Whether a bank that brings a score to ``score`` starts the last round (end=last-round reaches the target),
    if it has not started yet."""
    return rules.end is End.LAST_ROUND and score >= rules.target


def farkle_penalty(rules: Rules, *, score: int, farkles_in_row: int) -> int | None:
    """Points lost to the farkle that makes ``farkles_in_row`` in a row (never below 0), or None if it costs
    nothing; a penalized farkle starts the count again."""
    if rules.three_farkles and farkles_in_row == 3:
        return min(rules.three_farkles, score)
    return None


def bank_records(rules: Rules, *, entered: bool, turn_total: int) -> bool:
    """Whether banking this turn total adds it to the score (not when stopping below the entry)."""
    return entered or turn_total >= rules.entry


def room_to_target(rules: Rules, score: int, turn_total: int) -> int | None:
    """Most points a set-aside may add under end=exact (passing the target is not offered); None otherwise."""
    if rules.end is not End.EXACT:
        return None
    return rules.target - score - turn_total


_NUMBER = re.compile(r"(\d+)")
_SEAT = re.compile(r"(\d+)(~?)(?:x(\d+))?")
_HAND = re.compile(r"(\d+)/(\d+)")
_CLOCK = re.compile(r"(\d+)\.(\d+)(?:/(\d+))?")


def _field(pattern: re.Pattern[str], word: str, name: str) -> tuple[str, ...]:
    """The groups of one field of a position, or :class:`PositionError` naming it."""
    match = pattern.fullmatch(word)
    if match is None or not word.isascii():
        raise PositionError(Refusal(Code.POSITION_FIELD, {"field": name, "text": word}))
    return match.groups()


@functools.lru_cache(maxsize=64)
def _smallest_score(rules: Rules) -> int:
    """The unit every score and turn total is a multiple of: the greatest common divisor of the points the
    combinations score and of the three-farkle penalty (which takes points away, never below 0)."""
    return math.gcd(*(c.points for c in combinations(rules)), rules.three_farkles)


@dataclass(frozen=True)
class RollOff:
    """Who starts: everyone rolls one die, the highest starts, the tied highest roll again (seed 001)."""

    first: int
    rounds: tuple[tuple[tuple[int, int], ...], ...]  # per round: (player, die) for those who rolled


def roll_off(players: int, dice: DiceSource) -> RollOff:
    """Hold the roll-off; its dice are the rolls of turn -1 of the source (round r is roll r)."""
    if not 1 <= players <= MAX_PLAYERS:
        raise Refused(Refusal(Code.PLAYER_COUNT, {"max": MAX_PLAYERS, "players": players}))
    rolling = list(range(players))
    rounds = []
    for number in range(1000):
        faces = dice.roll(len(rolling), -1, number)
        rounds.append(tuple(zip(rolling, faces, strict=True)))
        top = max(faces)
        rolling = [p for p, f in zip(rolling, faces, strict=True) if f == top]
        if len(rolling) == 1:
            return RollOff(rolling[0], tuple(rounds))
    raise RuntimeError("the roll-off did not end: the dice source is not random")
