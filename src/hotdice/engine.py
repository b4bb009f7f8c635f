"""The game: whose turn, the scores, the turn in progress, what may be done, and how the game ends.

This module is the only place where the rules of play are enforced; front ends and computer players ask
it what is legal. Chance is explicit: after a ``roll`` action the game waits for dice
(:attr:`Game.dice_to_roll`), which the caller draws from an injected :mod:`hotdice.dice` source and gives
to :meth:`Game.apply_roll` — or :meth:`Game.play` does both.

A turn goes: roll → (farkle | set aside scoring dice) → roll again or bank → ... Decisions RULES.md leaves
to us are written where they are enforced.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from hotdice.dice import DiceSource
from hotdice.rules import BelowEntry, End, HotDice, Rules, SetAsideRule
from hotdice.scoring import DiceError, Option, SetAside, parse_dice, scorer

__all__ = [
    "BANK",
    "ROLL",
    "Action",
    "BankAction",
    "Event",
    "EventKind",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "Phase",
    "RollAction",
    "RollOff",
    "Termination",
    "after_set_aside",
    "bank_records",
    "bank_refusal",
    "needs_validation",
    "offered",
    "parse_action",
    "roll_off",
    "room_to_target",
    "wins_at_once",
]

MAX_PLAYERS = 8
_FACES = frozenset(range(1, 7))


class InvalidMoveError(ValueError):
    """An action that cannot be read (``keep 7``, ``jump``) or dice that are not dice."""


class IllegalMoveError(ValueError):
    """A readable action that the rules forbid now; the message says which rule."""


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
        raise InvalidMoveError(f"'{text}' is not an action: say roll, bank or the dice to set aside ({exc})") from None


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
    """Something that happened, for logs, animations and statistics."""

    kind: EventKind
    player: int
    turn: int
    points: int = 0  # points of a set-aside, bank, penalty or lost turn total
    dice: tuple[int, ...] = ()


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
    history: list[str] = field(default_factory=list, init=False)  # actions and rolls, in order, as text

    def __post_init__(self) -> None:
        if not 1 <= len(self.players) <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {len(self.players)}")
        if not 0 <= self.first < len(self.players):
            raise ValueError(f"first player {self.first} is not one of the {len(self.players)} players")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(f"turn_limit must be at least 1, not {self.turn_limit}")
        self.players = tuple(self.players)
        self._scorer = scorer(self.rules)
        self._seats = [_Seat(name, entered=self.rules.entry == 0) for name in self.players]
        self.current = self.first
        self.turn = 0  # turns played in the game so far, all players together
        self.rolls_this_turn = 0
        self.phase = Phase.DECIDE
        self.turn_total = 0
        self.dice_in_hand = self.rules.dice
        self.roll: tuple[int, ...] | None = None  # the roll on the table, as rolled
        self._offered: tuple[Option, ...] = ()  # its legal set-asides
        self.set_aside: list[SetAside] = []  # this turn's set-asides
        self.must_validate = False  # validate=yes: a triple or full hand awaits a scoring roll
        self.hot_dice = False  # every die has scored: all of them are back in hand
        self.last_round_by: int | None = None
        self.outcome: Outcome | None = None
        self._event(EventKind.TURN)

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
    def to_act(self) -> int | None:
        """The player who acts now; None while dice are rolled or once the game is over."""
        return self.current if self.phase in (Phase.DECIDE, Phase.SET_ASIDE) else None

    @property
    def dice_to_roll(self) -> int:
        """How many dice the next roll has."""
        return self.dice_in_hand

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def options(self) -> tuple[Option, ...]:
        """The legal set-asides of the roll on the table (:func:`offered`)."""
        return self._offered if self.phase is Phase.SET_ASIDE else ()

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.SET_ASIDE:
            return [o.keep for o in self.options()]
        if self.phase is Phase.DECIDE:
            return [ROLL, BANK] if self.why_not_bank() is None else [ROLL]
        return []

    def why_not_set_aside(self, keep: SetAside) -> str | None:
        """Why these dice may not be set aside now, in a player's words, or None if they may."""
        if self.phase is not Phase.SET_ASIDE or self.roll is None:
            return "there is no roll to set dice aside from: roll first"
        if any(o.keep == keep for o in self._offered):
            return None
        return self._why_not_offered(keep, self.roll)

    def why_not_bank_after(self, option: Option) -> str | None:
        """Why banking right after setting ``option`` aside would be refused, or None if it would be allowed
        (or if the set-aside wins at once by reaching an exact target): what a front end shows beside each
        choice before the player makes it."""
        seat = self._seats[self.current]
        room = room_to_target(self.rules, seat.score, self.turn_total)
        if room is not None and option.points == room:
            return None
        _, hot, validate = after_set_aside(self.rules, option)
        return bank_refusal(self.rules, score=seat.score, turn_total=self.turn_total + option.points,
                            entered=seat.entered, hot_dice=hot, must_validate=validate)

    def why_not_bank(self) -> str | None:
        """Why banking is not allowed now, in a player's words, or None if it is."""
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
            raise IllegalMoveError("the game is over")
        if player is not None and player != self.current:
            raise IllegalMoveError(
                f"it is not {self._name(player)}'s turn: it is {self.players[self.current]}'s"
            )
        if action is ROLL:
            if self.phase is not Phase.DECIDE:
                raise IllegalMoveError(self._not_deciding())
            self.phase = Phase.CHANCE
            self.history.append("roll")
        elif action is BANK:
            reason = self.why_not_bank()
            if reason is not None:
                raise IllegalMoveError(f"cannot bank: {reason}")
            self.history.append("bank")
            self._bank()
        elif isinstance(action, SetAside):
            self._set_aside(action)
        else:
            raise InvalidMoveError(f"{action!r} is not an action")

    def apply_roll(self, dice: Iterable[int]) -> None:
        """The dice of the roll the player asked for: exactly :attr:`dice_to_roll` faces from 1 to 6."""
        if self.phase is not Phase.CHANCE:
            raise IllegalMoveError("no roll is asked for: the player has not chosen to roll")
        roll = tuple(dice)
        if not _FACES.issuperset(roll) or not all(type(d) is int for d in roll):
            try:
                roll = parse_dice(roll, self.rules.dice)
            except DiceError as exc:
                raise InvalidMoveError(str(exc)) from None
        if len(roll) != self.dice_in_hand:
            raise InvalidMoveError(f"{len(roll)} dice given, but {self.dice_in_hand} are rolled")
        self.history.append("dice " + "".join(map(str, roll)))
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

    def play(self, action: Action | str, dice: DiceSource) -> None:
        """Apply an action and, if it is a roll, the dice drawn for it from ``dice``."""
        self.apply(action)
        if self.phase is Phase.CHANCE:
            self.apply_roll(dice.roll(self.dice_in_hand, self.turn, self.rolls_this_turn))

    # -- the steps of a turn -------------------------------------------------------------------

    def _set_aside(self, keep: SetAside) -> None:
        if self.phase is not Phase.SET_ASIDE or self.roll is None:
            raise IllegalMoveError("there is no roll to set dice aside from: roll first")
        option = next((o for o in self._offered if o.keep == keep), None)
        if option is None:
            raise IllegalMoveError(self._why_not_offered(keep, self.roll))
        self.history.append(f"keep {keep}")
        self.turn_total += option.points
        self.set_aside.append(keep)
        self.roll = None
        self.dice_in_hand, hot, validate = after_set_aside(self.rules, option)
        self._event(EventKind.SET_ASIDE, points=option.points, dice=tuple(keep))
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

    def _why_not_offered(self, keep: SetAside, roll: tuple[int, ...]) -> str:
        for face in set(keep):
            if keep.count(face) > roll.count(face):
                return f"{keep} is not in the roll {''.join(map(str, roll))}"
        if self._scorer.score(keep) is None:
            return f"{keep}: every die set aside must score, and these do not all score"
        if self._scorer.option_for(roll, keep) is None:
            return f"{keep}: every triple of the roll must be set aside (validate=yes)"
        if self.rules.set_aside is SetAsideRule.ALL:
            return f"{keep}: every scoring die of the roll must be set aside (set_aside=all)"
        return f"{keep} would pass the target of exactly {self.rules.target} (end=exact): set aside fewer dice"

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
            if r.end is End.LAST_ROUND and self.last_round_by is None and seat.score >= r.target:
                self.last_round_by = self.current
                self._event(EventKind.LAST_ROUND, points=seat.score)
        seat.farkles_in_row = 0
        self._end_turn(won)

    def _farkle(self) -> None:
        seat = self._seats[self.current]
        self._event(EventKind.FARKLE, points=self.turn_total)
        seat.farkles_in_row += 1
        penalty = self.rules.three_farkles
        if penalty and seat.farkles_in_row == 3:
            lost = min(penalty, seat.score)  # never below 0
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
        self.set_aside = []
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

    def _name(self, player: int) -> str:
        return self.players[player] if 0 <= player < len(self.players) else f"player {player}"

    def _leaders(self) -> tuple[int, ...]:
        best = max(s.score for s in self._seats)
        return tuple(i for i, s in enumerate(self._seats) if s.score == best)

    def _not_deciding(self) -> str:
        if self.phase is Phase.SET_ASIDE:
            return "set aside scoring dice from the roll first"
        if self.phase is Phase.CHANCE:
            return "the dice are being rolled"
        return "the game is over"

    def _event(self, kind: EventKind, points: int = 0, dice: tuple[int, ...] = ()) -> None:
        self.events.append(Event(kind, self.current, self.turn, points, dice))


def bank_refusal(
    rules: Rules, *, score: int, turn_total: int, entered: bool, hot_dice: bool, must_validate: bool
) -> str | None:
    """Why a player who has just set dice aside may not bank, or None if they may.

    A pure function of the turn so that computer players and solvers ask the very rule the game enforces.
    """
    r = rules
    if turn_total == 0:
        return "nothing to bank yet: roll first"
    if hot_dice and r.hot_dice is HotDice.MUST:
        return "hot dice must be rolled again (hot_dice=must)"
    if must_validate:
        return "a triple or a full hand must be validated by a scoring roll first (validate=yes)"
    if not entered and turn_total < r.entry:
        if r.below_entry is BelowEntry.ROLL:
            return f"the first bank needs {r.entry} in one turn: keep rolling (entry={r.entry})"
        return None  # below_entry=lost: the player may stop; the points will not be recorded
    if turn_total < r.min_bank:
        return f"a bank needs at least {r.min_bank} (min_bank={r.min_bank})"
    after = score + turn_total
    if r.rule_4900 and r.target - 100 <= after < r.target:
        return f"a bank may not leave you between {r.target - 100} and {r.target - 1}: go for the win (rule_4900)"
    return None


def offered(rules: Rules, roll: Iterable[int], room: int | None = None) -> tuple[Option, ...]:
    """The set-asides a player is offered from ``roll``, best first; none on a farkle.

    set_aside=all offers one: every scoring die of the roll, at their best partition (the set-aside with the
    most dice). Those adding more than ``room`` points (:func:`room_to_target`, end=exact) are not offered,
    so a turn busts when none is left. Computer players and solvers ask this, not the scorer.
    """
    every = scorer(rules).options(roll)
    if rules.set_aside is SetAsideRule.ALL and every:
        every = (max(every, key=lambda o: len(o.keep)),)
    return every if room is None else tuple(o for o in every if o.points <= room)


def needs_validation(rules: Rules, option: Option) -> bool:
    """validate=yes: setting aside a triple, or a full hand, must be validated by a scoring roll before a bank."""
    keep = option.keep
    return rules.validate and (option.dice_left == 0 or any(keep.count(f) >= 3 for f in set(keep)))


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


def bank_records(rules: Rules, *, entered: bool, turn_total: int) -> bool:
    """Whether banking this turn total adds it to the score (not when stopping below the entry)."""
    return entered or turn_total >= rules.entry


def room_to_target(rules: Rules, score: int, turn_total: int) -> int | None:
    """Most points a set-aside may add under end=exact (passing the target is not offered); None otherwise."""
    if rules.end is not End.EXACT:
        return None
    return rules.target - score - turn_total


@dataclass(frozen=True)
class RollOff:
    """Who starts: everyone rolls one die, the highest starts, the tied highest roll again (seed 001)."""

    first: int
    rounds: tuple[tuple[tuple[int, int], ...], ...]  # per round: (player, die) for those who rolled


def roll_off(players: int, dice: DiceSource) -> RollOff:
    """Hold the roll-off; its dice are the rolls of turn -1 of the source (round r is roll r)."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {players}")
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
