"""Why the game or the rules refuse something, as data: a stable code and the plain values its sentence needs.

The library speaks English: ``str()`` of a :class:`Refusal` is its English sentence. A front end words the
refusal from :attr:`Refusal.code` and :attr:`Refusal.values` in its player's language instead of reading
the English. Every code is listed in :class:`Code`, so that a catalogue can be checked against it.
"""

from __future__ import annotations

import enum
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ENGLISH", "Code", "Refusal", "Refused", "Words"]


class Code(enum.StrEnum):
    """Every refusal the engine, the rules and the modes make, one per distinct reason."""

    # an action refused now (engine)
    GAME_OVER = "game-over"
    NOT_YOUR_TURN = "not-your-turn"
    NO_SUCH_PLAYER = "no-such-player"
    SET_ASIDE_FIRST = "set-aside-first"
    ROLLING = "rolling"
    NOT_ROLLING = "not-rolling"
    NO_ROLL = "no-roll"
    EMPTY_SET_ASIDE = "empty-set-aside"
    NOT_IN_ROLL = "not-in-roll"
    NOT_SCORING = "not-scoring"
    EVERY_TRIPLE = "every-triple"
    SET_ASIDE_ALL = "set-aside-all"
    WOULD_PASS_TARGET = "would-pass-target"
    # a bank refused (engine.bank_refusal)
    ROLL_FIRST = "roll-first"
    HOT_DICE_MUST_ROLL = "hot-dice-must-roll"
    MUST_VALIDATE = "must-validate"
    BELOW_ENTRY = "below-entry"
    MIN_BANK = "min-bank"
    RULE_4900 = "rule-4900"
    # a rules string or value refused (rules, variants)
    EMPTY_RULES = "empty-rules"
    UNKNOWN_PRESET = "unknown-preset"
    NOT_KNOB_VALUE = "not-knob-value"
    KNOB_TWICE = "knob-twice"
    UNKNOWN_KNOB = "unknown-knob"
    NOT_JSON = "not-json"
    JSON_NOT_OBJECT = "json-not-object"
    KNOB_TAKES = "knob-takes"
    POINTS_TAKES = "points-takes"
    TARGET_NOT_POSITIVE = "target-not-positive"
    TARGET_TOO_HIGH = "target-too-high"
    NEGATIVE_POINTS = "negative-points"
    NOT_MULTIPLE_OF_50 = "not-multiple-of-50"
    SINGLES_SCORE_NOTHING = "singles-score-nothing"
    THREE_1S_SCORE_NOTHING = "three-1s-score-nothing"
    ENTRY_ABOVE_TARGET = "entry-above-target"
    MIN_BANK_ABOVE_TARGET = "min-bank-above-target"
    RULE_4900_NOT_EXACT = "rule-4900-not-exact"
    RULE_4900_LOW_TARGET = "rule-4900-low-target"
    SIX_DICE_ONLY = "six-dice-only"
    # dice or an action that cannot be read (scoring, engine)
    NO_DICE = "no-dice"
    NOT_A_DIE = "not-a-die"
    TOO_MANY_DICE = "too-many-dice"
    NOT_A_ROLL = "not-a-roll"
    NOT_A_QUESTION = "not-a-question"
    NOT_ALL_SCORE = "not-all-score"
    DICE_COUNT = "dice-count"
    NOT_AN_ACTION = "not-an-action"
    UNKNOWN_ACTION = "unknown-action"
    THEN_MISSING = "then-missing"
    NOT_A_DECISION = "not-a-decision"
    # a game that cannot be set up (engine, modes)
    PLAYER_COUNT = "player-count"
    TOGETHER_COUNT = "together-count"
    NO_NAME = "no-name"
    NAME_CONTROL = "name-control"
    NAME_TOO_LONG = "name-too-long"
    SAME_NAME = "same-name"
    CHALLENGE_CHARACTER = "challenge-character"
    CHALLENGE_LENGTH = "challenge-length"
    CHALLENGE_TYPO = "challenge-typo"
    CHALLENGE_PRESET = "challenge-preset"
    # a position that does not read, or that no game under the rules reaches (engine)
    POSITION_FIELDS = "position-fields"
    POSITION_FIELD = "position-field"
    POSITION_NAMES = "position-names"
    POSITION_SEATS = "position-seats"
    POSITION_NO_SEAT = "position-no-seat"
    POSITION_UNIT = "position-unit"
    POSITION_NOT_ENTERED = "position-not-entered"
    POSITION_NO_ENTRY = "position-no-entry"
    POSITION_BELOW_ENTRY = "position-below-entry"
    POSITION_NO_TURN = "position-no-turn"
    POSITION_FARKLES = "position-farkles"
    POSITION_TURNS = "position-turns"
    POSITION_PAST_TARGET = "position-past-target"
    POSITION_LAST_ROUND = "position-last-round"
    POSITION_HAND = "position-hand"
    POSITION_END = "position-end"
    POSITION_OVER_TURN = "position-over-turn"
    POSITION_PENDING = "position-pending"
    POSITION_TURN_TOTAL = "position-turn-total"
    POSITION_ROLL_DICE = "position-roll-dice"
    POSITION_ROLL_ENDS = "position-roll-ends"
    POSITION_FIRST_ROLL = "position-first-roll"
    POSITION_TURN_START = "position-turn-start"
    POSITION_SET_ASIDE = "position-set-aside"


# The library's sentences. Format specs word the values that are not single numbers or names: ``dice``
# writes faces side by side (155), ``or`` and ``list`` join choices and names (see :class:`Words`).
ENGLISH: Mapping[Code, str] = {
    Code.GAME_OVER: "the game is over",
    Code.NOT_YOUR_TURN: "it is not {player}'s turn: it is {current}'s",
    Code.NO_SUCH_PLAYER: "it is not player {seat}'s turn: it is {current}'s",
    Code.SET_ASIDE_FIRST: "set aside scoring dice from the roll first",
    Code.ROLLING: "the dice are being rolled",
    Code.NOT_ROLLING: "no roll is asked for: the player has not chosen to roll",
    Code.NO_ROLL: "there is no roll to set dice aside from: roll first",
    Code.EMPTY_SET_ASIDE: "nothing to set aside: choose at least one scoring die",
    Code.NOT_IN_ROLL: "{keep:dice} is not in the roll {roll:dice}",
    Code.NOT_SCORING: "{keep:dice}: every die set aside must score, and these do not all score",
    Code.EVERY_TRIPLE: "{keep:dice}: every triple of the roll must be set aside (validate=yes)",
    Code.SET_ASIDE_ALL: "{keep:dice}: every scoring die of the roll must be set aside (set_aside=all)",
    Code.WOULD_PASS_TARGET: "{keep:dice} would pass the target of exactly {target} (end=exact): set aside fewer dice",
    Code.ROLL_FIRST: "nothing to bank yet: roll first",
    Code.HOT_DICE_MUST_ROLL: "hot dice must be rolled again (hot_dice=must)",
    Code.MUST_VALIDATE: "a triple or a full hand must be validated by a scoring roll first (validate=yes)",
    Code.BELOW_ENTRY: "the first bank needs {entry} in one turn: keep rolling (entry={entry})",
    Code.MIN_BANK: "a bank needs at least {min_bank} (min_bank={min_bank})",
    Code.RULE_4900: "a bank may not leave you between {low} and {high}: go for the win (rule_4900)",
    Code.EMPTY_RULES: "empty rules string: start with a preset name, e.g. 'farkle'",
    Code.UNKNOWN_PRESET: "unknown preset '{name}'; presets are: {presets:list}",
    Code.NOT_KNOB_VALUE: "'{part}' is not knob=value (for example 'entry=500')",
    Code.KNOB_TWICE: "knob '{knob}' is given twice",
    Code.UNKNOWN_KNOB: "unknown knob '{knob}'; knobs are: {knobs:list}",
    Code.NOT_JSON: "rules JSON is not valid JSON: {reason}",
    Code.JSON_NOT_OBJECT: "rules JSON must be an object",
    Code.KNOB_TAKES: "{knob}={value} is not allowed: {knob} takes {choices:or}",
    Code.POINTS_TAKES: "{knob}={value} is not allowed: {knob} takes a whole number of points, a multiple of 50",
    Code.TARGET_NOT_POSITIVE: "target={value} is not allowed: the target must be positive",
    Code.TARGET_TOO_HIGH: "target={value} is not allowed: the target may be at most {max}",
    Code.NEGATIVE_POINTS: "{knob}={value} is not allowed: {knob} may not be negative",
    Code.NOT_MULTIPLE_OF_50: "{knob}={value} is not allowed: points are multiples of 50",
    Code.SINGLES_SCORE_NOTHING: "single_1=0 and single_5=0 together are not allowed: single dice must score",
    Code.THREE_1S_SCORE_NOTHING: "three_1s=0 is not allowed: three 1s must score",
    Code.ENTRY_ABOVE_TARGET: "entry={value} is not allowed: the entry may not be above the target ({target})",
    Code.MIN_BANK_ABOVE_TARGET: "min_bank={value} is not allowed: it may not be above the target ({target})",
    Code.RULE_4900_NOT_EXACT: "rule_4900=yes is not allowed without end=exact",
    Code.RULE_4900_LOW_TARGET: "rule_4900=yes is not allowed with target={target}: the target must be above 100",
    Code.SIX_DICE_ONLY: "{knob}={value} is not allowed with dice={dice}: {knob:six_dice} needs six dice",
    Code.NO_DICE: "no dice given: write the faces, e.g. 115 or 1 1 5",
    Code.NOT_A_DIE: "'{token}' is not a die: faces are 1 to 6",
    Code.TOO_MANY_DICE: "{given} dice given, but these rules play with {dice}",
    Code.NOT_A_ROLL: "{roll} is not a roll of 1 to {dice} dice with faces 1 to 6",
    Code.NOT_A_QUESTION: "{roll} is not a roll of 1 to {dice} dice",
    Code.NOT_ALL_SCORE: "{keep:dice} do not all score together",
    Code.DICE_COUNT: "{given} dice given, but {rolled} are rolled",
    Code.NOT_AN_ACTION: "'{text}' is not an action: say roll, bank or the dice to set aside ({reason})",
    Code.UNKNOWN_ACTION: "{action} is not an action",
    Code.THEN_MISSING: "'{text}': say what follows the set-aside: '{text}, then roll' or bank",
    Code.NOT_A_DECISION: "'{text}' is not a decision: say 'set aside 155, then roll' (or bank), roll or bank",
    Code.PLAYER_COUNT: "a game has 1 to {max} players, not {players}",
    Code.TOGETHER_COUNT: "playing together takes 2 to {max} players, not {players}",
    Code.NO_NAME: "player {seat} needs a name",
    Code.NAME_CONTROL: "player {seat}'s name '{name}' holds a control character ({character})",
    Code.NAME_TOO_LONG: "player {seat}'s name '{name}' is longer than {max} characters",
    Code.SAME_NAME: "two players have the same name: {names:list}",
    Code.CHALLENGE_CHARACTER: "'{character}' is not in challenge codes: they use 0-9 and A-Z without I, L, O, U",
    Code.CHALLENGE_LENGTH: "a challenge code has 10 characters (XXXXX-XXXXX), not {length}",
    Code.CHALLENGE_TYPO: "challenge code '{code}' has a typo: check it against the code you were sent",
    Code.CHALLENGE_PRESET: "challenge code '{code}' names a preset this hotdice does not know",
    Code.POSITION_FIELDS: "'{text}' is not a position: it has {fields} fields, not 8 "
                          "(SEATS SEAT TOTAL/HAND ROLL PENDING LAST CLOCK END)",
    Code.POSITION_FIELD: "'{text}' is not a position's {field} field: {field:grammar}",
    Code.POSITION_NAMES: "{names} names for a position of {seats} seats",
    Code.POSITION_SEATS: "a position has 1 to {max} seats, not {seats}",
    Code.POSITION_NO_SEAT: "{field} names seat {seat}, but the seats are 0 to {last}",
    Code.POSITION_UNIT: "{value} in {field} is not a multiple of {unit}, the smallest score of these rules",
    Code.POSITION_NOT_ENTERED: "seat {seat} has {score} points but has not entered: points count only after the entry",
    Code.POSITION_NO_ENTRY: "seat {seat} is marked not entered, but these rules have no entry",
    Code.POSITION_BELOW_ENTRY: "seat {seat} has entered with {score} points, below the entry of {entry}, "
                               "and no penalty can take points away",
    Code.POSITION_NO_TURN: "seat {seat} has {score} points, {farkles} farkles in a row or an entry, "
                           "but has not played a turn yet",
    Code.POSITION_FARKLES: "seat {seat} has {farkles} farkles in a row: at most {max} here",
    Code.POSITION_TURNS: "seat {seat} has played {turns} turns, past the game's {limit}",
    Code.POSITION_PAST_TARGET: "seat {seat} has {score} points with the game still on: {score} ends the game "
                               "or starts its last round (target {target})",
    Code.POSITION_LAST_ROUND: "seat {seat} has not reached the target of {target}: a last round starts only when "
                              "a seat reaches it under end=last-round",
    Code.POSITION_HAND: "dice in hand are 1 to {dice}, not {hand}",
    Code.POSITION_END: "no game under these rules ends '{end}' with these scores and seats",
    Code.POSITION_OVER_TURN: "a game that is over has no turn in progress",
    Code.POSITION_PENDING: "a validation is pending only under validate=yes, after a set-aside, before the next roll",
    Code.POSITION_TURN_TOTAL: "the turn total reaches or passes the target of exactly {target}: the turn is over",
    Code.POSITION_ROLL_DICE: "the roll {roll:dice} has {rolled} dice, but {hand} are in hand",
    Code.POSITION_ROLL_ENDS: "the roll {roll:dice} ends the turn: no player sets dice aside from it",
    Code.POSITION_FIRST_ROLL: "the first roll of a turn has every die",
    Code.POSITION_TURN_START: "a turn starts with every die in hand, no points and no roll yet, and only then",
    Code.POSITION_SET_ASIDE: "{points} cannot be set aside leaving {hand} dice in hand",
}


class Words(string.Formatter):
    """Fills a template with a refusal's values: ``{x:dice}`` faces side by side, ``{x:or}`` choices joined
    by the language's "or", ``{x:list}`` names joined by commas; anything else as ``format`` writes it."""

    def __init__(self, or_word: str = " or ", comma: str = ", ") -> None:
        self.or_word = or_word
        self.comma = comma

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "dice":
            return "".join(map(str, value))
        if format_spec == "or":
            return self.or_word.join(map(str, value))
        if format_spec == "list":
            return self.comma.join(map(str, value))
        if format_spec == "six_dice":
            return SIX_DICE[value]
        if format_spec == "grammar":
            return POSITION_GRAMMAR[value]
        return format(value, format_spec)


# The combinations a knob scores that only six dice can make (``{knob:six_dice}`` in a sentence).
SIX_DICE = {
    "six_kind": "six of a kind",
    "four_kind_pair": "four of a kind and a pair",
    "straight": "1-2-3-4-5-6",
    "three_pairs": "three pairs",
    "two_triplets": "two triples",
}

# What each field of a position holds (``{field:grammar}`` in a sentence): the grammar of Game.position.
POSITION_GRAMMAR = {
    "SEATS": "each seat's score, then ~ if not entered, xN for N farkles in a row, separated by commas",
    "SEAT": "a seat number",
    "TOTAL/HAND": "the turn total and the dice in hand, e.g. 350/2",
    "ROLL": "- (roll or bank), ? (dice to be rolled) or the faces rolled",
    "PENDING": "v (a validation is pending) or -",
    "LAST": "the seat that started the last round, or -",
    "CLOCK": "TURN.ROLLS or TURN.ROLLS/LIMIT",
    "END": "- or how the game ended: target, exact, five-ones, turn-limit",
}

_ENGLISH_WORDS = Words()


@dataclass(frozen=True)
class Refusal:
    """Why something is refused: :attr:`code` says which rule, :attr:`values` (ints, names, dice as tuples of
    faces, tuples of names, the refusal of dice an action is made of) fill its sentence. ``str()`` is the
    English sentence. A player's name ``x`` comes with ``x_seat``, the seat's index: the name is the one the
    game holds (a seat nobody named holds its English words), and a front end words the seat's name itself."""

    code: Code
    values: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return _ENGLISH_WORDS.format(ENGLISH[self.code], **self.values)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.values.items()))))

    def to_json(self) -> dict[str, Any]:
        """The code and the values as JSON values (tuples become lists)."""
        return {"code": self.code.value, "values": {k: _json(v) for k, v in self.values.items()}}


def _json(value: Any) -> Any:
    if isinstance(value, Refusal):
        return value.to_json()
    return list(value) if isinstance(value, tuple) else value


class Refused(ValueError):
    """An error whose reason is a :class:`Refusal`; ``str()`` is its English sentence."""

    def __init__(self, refusal: Refusal, message: str | None = None) -> None:
        super().__init__(str(refusal) if message is None else message)
        self.refusal = refusal

    @property
    def code(self) -> Code:
        return self.refusal.code
