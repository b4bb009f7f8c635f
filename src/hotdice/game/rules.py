"""The rules of one table, as one immutable value, and the shareable rules string.

A rules string is a preset name followed by comma-separated overrides, for example
``farkle,entry=500,three_farkles=1000``. Formatting picks whichever preset gives the shortest
string, so equal rules always print the same way and string -> rules -> string round-trips.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from hotdice.game.refusals import SIX_DICE, Code, Refusal, Refused, expect, expect_whole

__all__ = [
    "KNOBS",
    "MAX_TARGET",
    "PRESETS",
    "UNIT",
    "BelowEntry",
    "End",
    "HotDice",
    "Kinds",
    "Knob",
    "Rules",
    "RulesError",
    "SetAsideRule",
    "preset",
]


MAX_TARGET = 1_000_000  # the largest target a rules value accepts
UNIT = 50  # every knob's points are a multiple of it: the step of the solver's tables and of a position's numbers


class RulesError(Refused):
    """A rules string or value that cannot be a table's rules; :attr:`refusal` says which knob and why."""


class End(enum.Enum):
    """How the game ends once someone reaches the target."""

    LAST_ROUND = "last-round"  # every other player gets exactly one more turn; highest score wins
    FIRST = "first"  # the first bank reaching the target wins at once
    EXACT = "exact"  # the target must be hit exactly; a turn that would pass it busts


class BelowEntry(enum.Enum):
    """What a player who has not yet entered may do with a turn total below the entry threshold."""

    LOST = "lost"  # they may stop, but the points are not recorded (seed 001)
    ROLL = "roll"  # they must keep rolling (seeds 000, 003)


class HotDice(enum.Enum):
    """What happens when every die has been set aside."""

    OPTIONAL = "optional"  # roll all the dice again, or bank (seed 003)
    MUST = "must"  # all the dice must be rolled again (seeds 000, 001)


class SetAsideRule(enum.Enum):
    """Which dice of a scoring roll are set aside."""

    CHOOSE = "choose"  # any scoring subset, at least one die (seeds 001, 003)
    ALL = "all"  # every scoring die of the roll, at their best partition (seed 000)


class Kinds(enum.Enum):
    """How four, five and six of a kind score."""

    FIXED = "fixed"  # four_kind / five_kind / six_kind points, whatever the face (seed 003)
    DOUBLING = "doubling"  # each die past three doubles the triple: four 3s = 600, five = 1200 (seed 003)
    ADDITIVE = "additive"  # each die past three adds the triple again: four 3s = 600, five = 900
    NONE = "none"  # only triples score; a fourth die of the face must score alone (1 or 5) (seeds 000, 001)


@dataclass(frozen=True)
class Rules:
    """Every rule and house rule of one table. Scores are multiples of 50."""

    dice: int = 6
    target: int = 10_000
    end: End = End.LAST_ROUND
    entry: int = 0
    below_entry: BelowEntry = BelowEntry.ROLL
    min_bank: int = 0
    hot_dice: HotDice = HotDice.OPTIONAL
    validate: bool = False
    set_aside: SetAsideRule = SetAsideRule.CHOOSE
    rule_4900: bool = False
    three_farkles: int = 0
    five_1s_win: bool = False
    # scoring
    single_1: int = 100
    single_5: int = 50
    three_1s: int = 1000
    kinds: Kinds = Kinds.FIXED
    four_kind: int = 1000
    five_kind: int = 2000
    six_kind: int = 3000
    four_kind_pair: int = 0
    straight: int = 1500
    three_pairs: int = 1500
    two_triplets: int = 2500
    low_straight: int = 0
    high_straight: int = 0

    def __post_init__(self) -> None:
        _validate(self)

    # -- reading and writing ------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a rules string: ``PRESET[,knob=value,...]``."""
        expect(text, str, "rules", RulesError)
        return _parsed(text)

    @classmethod
    def _read(cls, text: str) -> Rules:
        parts = [p.strip() for p in text.strip().split(",")]
        if not parts[0]:
            raise RulesError(Refusal(Code.EMPTY_RULES))
        base = preset(parts[0])
        changes: dict[str, Any] = {}
        for part in parts[1:]:
            if not part:
                continue
            name, sep, value = part.partition("=")
            name = name.strip()
            if not sep:
                raise RulesError(Refusal(Code.NOT_KNOB_VALUE, {"part": part}))
            knob = _knob(name)
            if name in changes:
                raise RulesError(Refusal(Code.KNOB_TWICE, {"knob": name}))
            changes[name] = knob.read(value.strip())
        return base.replace(**changes)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed; unknown knobs, impossible values and knobs changed where they cannot
        act (a six-dice combination with five dice) are refused; a knob given its value already is no change."""
        for name in changes:
            _knob(name)
        changed = dataclasses.replace(self, **changes)
        for name, value in changes.items():
            if value != getattr(self, name) and _idle_with_five(changed, name, value):
                raise _six_dice_refusal(changed, name)
        return changed

    def __str__(self) -> str:
        return _written(self)

    def _write(self) -> str:
        best: str | None = None
        for name, rules in PRESETS.items():
            changed = [k for k in KNOBS if getattr(self, k.name) != getattr(rules, k.name)]
            if any(_idle_with_five(self, k.name, getattr(self, k.name)) for k in changed):
                continue  # the string would set a six-dice combination with five dice, which parse refuses
            text = ",".join([name, *(f"{k.name}={k.write(getattr(self, k.name))}" for k in changed)])
            if best is None or len(text) < len(best):
                best = text
        assert best is not None
        return best

    def to_json(self) -> dict[str, Any]:
        """Every knob by name, plus the rules string; values as they are written in rules strings."""
        data: dict[str, Any] = {"rules": str(self)}
        for k in KNOBS:
            value = getattr(self, k.name)
            data[k.name] = value.value if isinstance(value, enum.Enum) else value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Rules:
        """Inverse of :meth:`to_json`; also accepts the JSON text. The knobs that differ override the rules
        string."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise RulesError(Refusal(Code.NOT_JSON, {"reason": exc.msg})) from None
        if not isinstance(data, Mapping):
            raise RulesError(Refusal(Code.JSON_NOT_OBJECT))
        base = cls.parse(str(data.get("rules", "farkle")))
        changes = {}
        for name, value in data.items():
            if name == "rules":
                continue
            knob = _knob(name)
            read = knob.read(str(value).lower() if isinstance(value, bool) else str(value))
            if read != getattr(base, name):
                changes[name] = read
        return base.replace(**changes)

    # -- facts derived from the knobs ---------------------------------------------------------

    def acting_knobs(self) -> tuple[Knob, ...]:
        """The knobs that act under these rules: a combination of six dice does not with five, n of a kind
        values only with kinds=fixed, below_entry only with an entry, rule_4900 only with end=exact."""
        return tuple(k for k in KNOBS if _acts(self, k.name))

    def triple(self, face: int) -> int:
        """Points of three of ``face``."""
        expect_whole(face, "face", 1, 6, RulesError)
        return self.three_1s if face == 1 else 100 * face

    def n_of_a_kind(self, face: int, n: int) -> int:
        """Points of ``n`` (3..6) dice of ``face`` scored as one combination; 0 if it is none."""
        expect_whole(n, "n", 3, 6, RulesError)
        if n == 3:
            return self.triple(face)
        if self.kinds is Kinds.FIXED:
            return (self.four_kind, self.five_kind, self.six_kind)[n - 4]
        if self.kinds is Kinds.DOUBLING:
            return self.triple(face) * (1 << (n - 3))
        if self.kinds is Kinds.ADDITIVE:
            return self.triple(face) * (n - 2)
        return 0


# Rules are immutable, and a server reads and writes the same few rules strings at every action (records,
# views): both directions are remembered.
_parsed = functools.lru_cache(maxsize=1024)(Rules._read)
_written = functools.lru_cache(maxsize=1024)(Rules._write)


@dataclass(frozen=True)
class Knob:
    """One name in the rules string: how to read and write its value, and what it means."""

    name: str
    help: str

    @property
    def kind(self) -> Any:
        return _FIELD_TYPES[self.name]

    def choices(self) -> tuple[str, ...] | None:
        """The values this knob takes, when they can be listed (None: a number of points)."""
        kind = self.kind
        if kind is bool:
            return ("yes", "no")
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            return tuple(m.value for m in kind)
        return ("5", "6") if self.name == "dice" else None

    def accepted(self) -> str:
        choices = self.choices()
        return "a whole number of points, a multiple of 50" if choices is None else " or ".join(choices)

    def refusal(self, value: str) -> Refusal:
        """The refusal of ``value`` (as written) for this knob: what the knob takes."""
        choices = self.choices()
        if choices is None:
            return Refusal(Code.POINTS_TAKES, {"knob": self.name, "value": value})
        return Refusal(Code.KNOB_TAKES, {"knob": self.name, "value": value, "choices": choices})

    def read(self, text: str) -> Any:
        kind = self.kind
        bad = RulesError(self.refusal(text))
        if kind is bool:
            if text.lower() in ("yes", "true", "on", "1"):
                return True
            if text.lower() in ("no", "false", "off", "0"):
                return False
            raise bad
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            try:
                return kind(text.lower())
            except ValueError:
                raise bad from None
        try:
            return int(text.replace("_", ""))
        except ValueError:
            raise bad from None

    def write(self, value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, enum.Enum):
            return str(value.value)
        return str(value)


_FIELD_TYPES: dict[str, Any] = {
    f.name: {"int": int, "bool": bool, "End": End, "BelowEntry": BelowEntry, "HotDice": HotDice, "Kinds": Kinds,
             "SetAsideRule": SetAsideRule}[str(f.type)]
    for f in fields(Rules)
}

KNOBS: tuple[Knob, ...] = (
    Knob("dice", "number of dice: 5 or 6"),
    Knob("target", "points that end the game (see end)"),
    Knob(
        "end",
        "last-round: the others get one more turn, highest wins; first: reaching the target "
        "wins at once; exact: the target must be hit exactly, passing it busts the turn",
    ),
    Knob("entry", "points needed in one turn before a player's first bank counts (0 = none)"),
    Knob(
        "below_entry",
        "below the entry: lost = the player may stop but the points are not recorded; "
        "roll = the player must keep rolling",
    ),
    Knob("min_bank", "smallest turn total that may be banked once entered (0 = any)"),
    Knob("hot_dice", "when every die has scored: optional = roll them all again or bank; must = roll again"),
    Knob(
        "validate",
        "every triple must be set aside, and a triple or a full hand must be validated by "
        "a scoring roll before banking",
    ),
    Knob(
        "set_aside",
        "after a scoring roll: choose = set aside any scoring dice (at least one); all = every scoring die "
        "of the roll is set aside",
    ),
    Knob("rule_4900", "with end=exact: a bank may not leave the player within 100 of the target"),
    Knob("three_farkles", "penalty for three farkles in a row, never below 0 (0 = off)"),
    Knob("five_1s_win", "five 1s in one roll win the game at once"),
    Knob("single_1", "a single 1"),
    Knob("single_5", "a single 5"),
    Knob("three_1s", "three 1s (three n are worth 100 n)"),
    Knob(
        "kinds",
        "four, five, six of a kind: fixed = four_kind/five_kind/six_kind points; doubling = "
        "the triple doubled per extra die; additive = the triple added per extra die; "
        "none = triples only",
    ),
    Knob("four_kind", "four of a kind with kinds=fixed (0 = not a combination)"),
    Knob("five_kind", "five of a kind with kinds=fixed (0 = not a combination)"),
    Knob("six_kind", "six of a kind with kinds=fixed (0 = not a combination)"),
    Knob("four_kind_pair", "four of a kind and a pair, six dice (0 = not a combination)"),
    Knob("straight", "1-2-3-4-5-6 (0 = not a combination)"),
    Knob("three_pairs", "three pairs of three different values (0 = not a combination)"),
    Knob("two_triplets", "two triples of two different values (0 = scored as two triples)"),
    Knob("low_straight", "1-2-3-4-5 in one roll (0 = not a combination)"),
    Knob("high_straight", "2-3-4-5-6 in one roll (0 = not a combination)"),
)
_KNOBS_BY_NAME = {k.name: k for k in KNOBS}
_DEFAULTS = {f.name: f.default for f in fields(Rules)}
assert set(_KNOBS_BY_NAME) == set(_FIELD_TYPES), "every Rules field is a knob"


def _knob(name: str) -> Knob:
    try:
        return _KNOBS_BY_NAME[name]
    except KeyError:
        knobs = tuple(k.name for k in KNOBS)
        raise RulesError(Refusal(Code.UNKNOWN_KNOB, {"knob": name, "knobs": knobs})) from None


# The combinations of six dice: with five dice they cannot act, and setting one is refused: in a rules string
# or Rules.replace, and in a value away from the default (the farkle preset's, which a five-dice rules string
# can always be written from).


def _idle_with_five(r: Rules, name: str, value: Any) -> bool:
    """Whether setting knob ``name`` to ``value`` under ``r`` sets a six-dice combination with five dice."""
    return r.dice < 6 and name in SIX_DICE and value != 0


def _six_dice_refusal(r: Rules, name: str) -> RulesError:
    return RulesError(Refusal(Code.SIX_DICE_ONLY, {"knob": name, "value": getattr(r, name), "dice": r.dice}))


def _acts(r: Rules, name: str) -> bool:
    """Whether knob ``name`` can change play under ``r``."""
    if name in SIX_DICE and r.dice < 6:
        return False
    if name in ("four_kind", "five_kind", "six_kind"):
        return r.kinds is Kinds.FIXED
    if name == "below_entry":
        return r.entry > 0
    if name == "rule_4900":
        return r.end is End.EXACT
    return True


def _validate(r: Rules) -> None:
    """Refuse a value no table could play, naming the knob and what it accepts."""
    for k in KNOBS:
        value = getattr(r, k.name)
        kind = _FIELD_TYPES[k.name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise RulesError(k.refusal(repr(value)))
    if r.dice not in (5, 6):
        raise RulesError(_KNOBS_BY_NAME["dice"].refusal(str(r.dice)))
    for name in SIX_DICE:
        if _idle_with_five(r, name, getattr(r, name)) and getattr(r, name) != _DEFAULTS[name]:
            raise _six_dice_refusal(r, name)
    if r.target <= 0:
        raise RulesError(Refusal(Code.TARGET_NOT_POSITIVE, {"value": r.target}))
    if r.target > MAX_TARGET:
        raise RulesError(Refusal(Code.TARGET_TOO_HIGH, {"value": r.target, "max": MAX_TARGET}))
    points = [k.name for k in KNOBS if _FIELD_TYPES[k.name] is int and k.name != "dice"]  # every other number
    for name in points:
        value = getattr(r, name)
        if value < 0:
            raise RulesError(Refusal(Code.NEGATIVE_POINTS, {"knob": name, "value": value}))
        if value % UNIT:
            raise RulesError(Refusal(Code.NOT_MULTIPLE_OF_50, {"knob": name, "value": value}))
    if r.single_1 == 0 and r.single_5 == 0:
        raise RulesError(Refusal(Code.SINGLES_SCORE_NOTHING))
    if r.three_1s == 0:
        raise RulesError(Refusal(Code.THREE_1S_SCORE_NOTHING))
    if r.entry > r.target:
        raise RulesError(Refusal(Code.ENTRY_ABOVE_TARGET, {"value": r.entry, "target": r.target}))
    if r.min_bank > r.target:
        raise RulesError(Refusal(Code.MIN_BANK_ABOVE_TARGET, {"value": r.min_bank, "target": r.target}))
    if r.rule_4900 and r.end is not End.EXACT:
        raise RulesError(Refusal(Code.RULE_4900_NOT_EXACT))
    if r.rule_4900 and r.target <= 100:
        raise RulesError(Refusal(Code.RULE_4900_LOW_TARGET, {"target": r.target}))


# The presets of RULES.md (names are part of the public interface), in their order; hotdice.game.variants adds
# each one's title and source.
# What the three 5000 presets share: 5000 points, all dice rolled again after a full hand, triples only.
_5000 = Rules(dice=5, target=5000, hot_dice=HotDice.MUST, kinds=Kinds.NONE, straight=0, three_pairs=0, two_triplets=0)
PRESETS: dict[str, Rules] = {
    # Seed 003 (Farkle / 10 000, the "Farkle Challenge" table): no entry, optional hot dice, last round.
    "farkle": Rules(),
    # Seed 001 (5000, English): 350 to get on the board, points below it not recorded; 1-2-3-4-5 = 1500.
    "5000": _5000.replace(entry=350, below_entry=BelowEntry.LOST, low_straight=1500),
    # Seed 000 (5000, French encyclopedia), five dice: exactly 5000, open with 750, both straights 750,
    # five 1s in one roll win at once, every scoring die of a roll set aside (its examples take them all, and
    # "a player at 4 900 who rolls 150 passes" holds only so). Variants: entry=1000, min_bank=300, rule_4900=yes.
    "5000-fr": _5000.replace(end=End.EXACT, entry=750, low_straight=750, high_straight=750, five_1s_win=True,
                             set_aside=SetAsideRule.ALL),
    # Seed 000, six-dice variant: open with 700, then at least 300 a bank, triples kept and validated (singles
    # chosen), reaching 5000 wins at once.
    "5000-fr-6": _5000.replace(dice=6, end=End.FIRST, entry=700, min_bank=300, validate=True),
}


def preset(name: str) -> Rules:
    """The rules of the preset called ``name`` (case-insensitive), or a RulesError listing the presets."""
    expect(name, str, "preset", RulesError)
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(Refusal(Code.UNKNOWN_PRESET, {"name": name, "presets": tuple(PRESETS)})) from None
