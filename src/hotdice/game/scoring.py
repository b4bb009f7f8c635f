"""Scoring: the combinations of a rules value, the legal set-asides of a roll, and their points.

Only dice of one roll combine. The points of a set-aside are its best partition into combinations,
and every die set aside must belong to one. A :class:`Scorer` builds, once per rules, tables over
every multiset of 1..N dice, so scoring a roll afterwards is a lookup.

A multiset of dice is indexed by its *key*: ``sum(7 ** (face - 1))`` over its dice, i.e. the face
counts written in base 7. Keys of up to six dice are below ``7 ** 6``.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.game.refusals import Code, Refusal, Refused, expect, expect_whole
from hotdice.game.rules import Kinds, Rules, RulesError

__all__ = [
    "FACES",
    "POW7",
    "STRAIGHTS",
    "Combination",
    "CombinationKind",
    "DiceError",
    "Option",
    "Scorer",
    "ScoringLine",
    "SetAside",
    "combinations",
    "dice_key",
    "parse_dice",
    "scorer",
    "scoring_table",
]

FACES = (1, 2, 3, 4, 5, 6)
_KEYS = 7**6
_FACE_SET = frozenset(FACES)
_POW7_OF = {face: 7 ** (face - 1) for face in FACES}
POW7 = np.array([7**i for i in range(6)], dtype=np.int64)


class DiceError(Refused):
    """Dice that cannot be read: a face outside 1..6, a letter, too many or no dice."""


def parse_dice(text: str | Iterable[int | str], max_dice: int = 6) -> tuple[int, ...]:
    """Read dice written as ``"111155"``, ``"1 1 1 1 5 5"``, ``"1,5"`` or a sequence of faces."""
    expect_whole(max_dice, "max_dice", 1, 6, DiceError)
    expect(text, (str, list, tuple), "dice", DiceError)
    if isinstance(text, str):
        tokens: list[str] = [ch for ch in text if not ch.isspace() and ch != ","]
    else:
        tokens = []
        for item in text:
            tokens.extend(ch for ch in str(item) if not ch.isspace() and ch != ",")
    if not tokens:
        raise DiceError(Refusal(Code.NO_DICE))
    for tok in tokens:
        if tok not in "123456":
            raise DiceError(Refusal(Code.NOT_A_DIE, {"token": tok}))
    if len(tokens) > max_dice:
        raise DiceError(Refusal(Code.TOO_MANY_DICE, {"given": len(tokens), "dice": max_dice}))
    return tuple(int(t) for t in tokens)


def dice_key(dice: Iterable[int]) -> int:
    """The multiset key of some dice (their face counts in base 7)."""
    return sum(map(_POW7_OF.__getitem__, dice))


def _counts(key: int) -> tuple[int, ...]:
    return tuple((key // 7**i) % 7 for i in range(6))


def _key_of_counts(counts: Sequence[int]) -> int:
    return sum(c * 7**i for i, c in enumerate(counts))


class SetAside(tuple[int, ...]):
    """Dice set aside from one roll, sorted: ``SetAside(1, 5, 5)`` is written ``"155"``."""

    __slots__ = ()

    def __new__(cls, *dice: int) -> SetAside:
        if not all(type(d) is int and 1 <= d <= 6 for d in dice):
            dice = _faces(dice, "dice")  # numpy's whole numbers too; anything else refused, saying which
        return super().__new__(cls, sorted(dice))

    def __getnewargs__(self) -> tuple[int, ...]:
        """The faces, one argument each: a copied or unpickled set-aside is the same dice (not one tuple)."""
        return tuple(self)

    @classmethod
    def parse(cls, text: str | Iterable[int | str], max_dice: int = 6) -> SetAside:
        return cls(*parse_dice(text, max_dice))

    def __str__(self) -> str:
        return "".join(map(str, self))

    def __repr__(self) -> str:
        return f"SetAside({', '.join(map(str, self))})"

    @property
    def key(self) -> int:
        return dice_key(self)


class CombinationKind(enum.Enum):
    """What makes a group of dice score: one kind per line of points in the rules."""

    SINGLE = "single"  # a 1 or a 5 on its own
    OF_A_KIND = "of-a-kind"  # three or more of one face
    STRAIGHT = "straight"  # 1-6
    LOW_STRAIGHT = "low-straight"  # 1-5
    HIGH_STRAIGHT = "high-straight"  # 2-6
    THREE_PAIRS = "three-pairs"  # three different faces
    TWO_TRIPLETS = "two-triplets"  # two different faces
    FOUR_KIND_PAIR = "four-kind-pair"  # four of one face and a pair of another


# The faces of each straight.
STRAIGHTS = {
    CombinationKind.STRAIGHT: (1, 2, 3, 4, 5, 6),
    CombinationKind.LOW_STRAIGHT: (1, 2, 3, 4, 5),
    CombinationKind.HIGH_STRAIGHT: (2, 3, 4, 5, 6),
}
_COUNT_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Combination:
    """A scoring group of dice from one roll."""

    kind: CombinationKind
    dice: SetAside
    points: int

    @property
    def name(self) -> str:
        """The combination in English, e.g. ``three 2s`` or ``four 1s and a pair of 2s``."""
        dice, kind = self.dice, self.kind
        faces = sorted(set(dice))
        if kind is CombinationKind.SINGLE:
            return f"a {dice[0]}"
        if kind is CombinationKind.OF_A_KIND:
            return f"{_COUNT_WORDS[len(dice)]} {dice[0]}s"
        if kind is CombinationKind.THREE_PAIRS:
            return "three pairs " + "-".join(f"{face}{face}" for face in faces)
        if kind is CombinationKind.TWO_TRIPLETS:
            return f"two triples {faces[0]}s and {faces[1]}s"
        if kind is CombinationKind.FOUR_KIND_PAIR:
            four = next(face for face in faces if dice.count(face) == 4)
            pair = next(face for face in faces if face != four)
            return f"four {four}s and a pair of {pair}s"
        return f"straight {dice[0]}-{dice[-1]}"


@dataclass(frozen=True)
class ScoringLine:
    """One line of the scoring table: a kind of combination, its number of dice, its face where it has one
    (None where every face scores alike, or no one face makes it), and its points."""

    kind: CombinationKind
    dice: int
    face: int | None
    points: int

    @property
    def name(self) -> str:
        """The line in English, e.g. ``Three 2s``, ``Four of a kind`` or ``Three pairs (three different values)``."""
        kind = self.kind
        if kind is CombinationKind.SINGLE:
            return f"A {self.face}"
        if kind is CombinationKind.OF_A_KIND:
            count = _COUNT_WORDS[self.dice].capitalize()
            return f"{count} of a kind" if self.face is None else f"{count} {self.face}s"
        if kind is CombinationKind.THREE_PAIRS:
            return "Three pairs (three different values)"
        if kind is CombinationKind.TWO_TRIPLETS:
            return "Two triples (two different values)"
        if kind is CombinationKind.FOUR_KIND_PAIR:
            return "Four of a kind and a pair"
        faces = STRAIGHTS[kind]
        return f"Straight {faces[0]}-{faces[-1]}"


@dataclass(frozen=True)
class Option:
    """One legal set-aside of a roll."""

    set_aside: SetAside
    points: int
    dice_left: int


def combinations(rules: Rules) -> tuple[Combination, ...]:
    """Every combination the rules score, with its points, for groups of up to ``rules.dice`` dice."""
    n = rules.dice
    found: list[Combination] = []

    def add(kind: CombinationKind, dice: Sequence[int], points: int) -> None:
        if points > 0 and len(dice) <= n:
            found.append(Combination(kind, SetAside(*dice), points))

    add(CombinationKind.SINGLE, [1], rules.single_1)
    add(CombinationKind.SINGLE, [5], rules.single_5)
    for count in range(3, n + 1):
        for face in FACES:
            add(CombinationKind.OF_A_KIND, [face] * count, rules.n_of_a_kind(face, count))
    add(CombinationKind.STRAIGHT, STRAIGHTS[CombinationKind.STRAIGHT], rules.straight)
    add(CombinationKind.LOW_STRAIGHT, STRAIGHTS[CombinationKind.LOW_STRAIGHT], rules.low_straight)
    add(CombinationKind.HIGH_STRAIGHT, STRAIGHTS[CombinationKind.HIGH_STRAIGHT], rules.high_straight)
    for a, b, c in itertools.combinations(FACES, 3):
        add(CombinationKind.THREE_PAIRS, [a, a, b, b, c, c], rules.three_pairs)
    for a, b in itertools.combinations(FACES, 2):
        add(CombinationKind.TWO_TRIPLETS, [a] * 3 + [b] * 3, rules.two_triplets)
    for a, b in itertools.permutations(FACES, 2):
        add(CombinationKind.FOUR_KIND_PAIR, [a] * 4 + [b] * 2, rules.four_kind_pair)
    return tuple(found)


def scoring_table(rules: Rules) -> tuple[ScoringLine, ...]:
    """The combinations as a player reads them: one line per kind and points, e.g. three pairs for 1500.

    Singles and triples are told per face; four or more of a kind too, unless every face scores them alike
    (``kinds=fixed``); the other kinds once, whatever their faces."""
    lines: list[ScoringLine] = []
    for combo in combinations(rules):
        kind, dice = combo.kind, combo.dice
        per_face = kind is CombinationKind.SINGLE or (
            kind is CombinationKind.OF_A_KIND and (len(dice) == 3 or rules.kinds is not Kinds.FIXED)
        )
        line = ScoringLine(kind, len(dice), dice[0] if per_face else None, combo.points)
        if line not in lines:
            lines.append(line)
    return tuple(lines)


def _multisets(max_dice: int) -> list[tuple[int, ...]]:
    """Face counts of every multiset of 0..max_dice dice, smallest first."""
    out = [counts for counts in itertools.product(range(max_dice + 1), repeat=6) if sum(counts) <= max_dice]
    out.sort(key=sum)
    return out


class Scorer:
    """Lookup tables of one rules value: points of every multiset, legal set-asides of every roll."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.combinations = combinations(rules)
        multisets = _multisets(rules.dice)
        # points[key]: best partition of exactly these dice into combinations, -1 if some die cannot score.
        points = np.full(_KEYS, -1, dtype=np.int32)
        points[0] = 0
        combos = [(_counts(c.dice.key), c.dice.key, c.points) for c in self.combinations]
        for counts in multisets[1:]:
            key = _key_of_counts(counts)
            best = -1
            for ccounts, ckey, cpoints in combos:
                if all(ccounts[i] <= counts[i] for i in range(6)):
                    rest = points[key - ckey]
                    if rest >= 0 and rest + cpoints > best:
                        best = int(rest + cpoints)
            points[key] = best
        self.points: npt.NDArray[np.int32] = points
        # options[key] of a roll: its legal set-asides, best first; best[key]: the best points (0 = farkle).
        self._options: dict[int, tuple[Option, ...]] = {}
        best_points = np.zeros(_KEYS, dtype=np.int32)
        for counts in multisets[1:]:
            key = _key_of_counts(counts)
            options = self._legal_set_asides(counts)
            self._options[key] = options
            if options:
                best_points[key] = options[0].points
        self.best_points: npt.NDArray[np.int32] = best_points

    def _legal_set_asides(self, roll: tuple[int, ...]) -> tuple[Option, ...]:
        size = sum(roll)
        # With validation, every triple in the roll must be set aside (six of a face are two triples).
        least = [3 * (c // 3) if self.rules.validate else 0 for c in roll]
        found = []
        for chosen in itertools.product(*(range(lo, c + 1) for lo, c in zip(least, roll, strict=True))):
            n_chosen = sum(chosen)
            if n_chosen == 0:
                continue
            pts = int(self.points[_key_of_counts(chosen)])
            if pts > 0:
                dice = SetAside(*(face for face, c in zip(FACES, chosen, strict=True) for _ in range(c)))
                found.append(Option(dice, pts, size - n_chosen))
        found.sort(key=lambda o: (-o.points, len(o.set_aside), tuple(o.set_aside)))
        return tuple(found)

    # -- questions about one roll -------------------------------------------------------------

    def options(self, roll: Iterable[int]) -> tuple[Option, ...]:
        """Every legal set-aside of the roll exactly once, best first (most points, then fewest dice)."""
        return self._options[self._roll_key(roll)]

    def best(self, roll: Iterable[int]) -> Option | None:
        """The set-aside with the most points (fewest dice among equals), or None on a farkle."""
        options = self.options(roll)
        return options[0] if options else None

    def is_farkle(self, roll: Iterable[int]) -> bool:
        return not self.options(roll)

    def wins_game(self, roll: Iterable[int]) -> bool:
        """Whether this roll wins the game at once (five 1s in one roll, where the rules say so)."""
        return self.rules.five_1s_win and self._roll_key(roll) % 7 >= 5  # the key's lowest base-7 digit counts the 1s

    def score(self, dice: Iterable[int]) -> int | None:
        """Points of these dice set aside together, or None if some die cannot score with the others."""
        pts = int(self.points[self._roll_key(dice)])
        return pts if pts > 0 else None

    def option_for(self, roll: Iterable[int], set_aside: Iterable[int]) -> Option | None:
        """``set_aside`` as a legal set-aside of ``roll``, or None if it is not one."""
        wanted = SetAside(*_faces(set_aside, "set_aside"))
        for option in self.options(roll):
            if option.set_aside == wanted:
                return option
        return None

    def partition(self, dice: Iterable[int]) -> list[Combination]:
        """The combinations that give these dice their points (their best partition), largest first."""
        set_aside = SetAside(*_faces(dice, "dice"))
        total = self.score(set_aside)
        if total is None:
            raise DiceError(Refusal(Code.NOT_ALL_SCORE, {"keep": tuple(set_aside)}))
        for combo in sorted(self.combinations, key=lambda c: -len(c.dice)):
            rest = list(set_aside)
            try:
                for d in combo.dice:
                    rest.remove(d)
            except ValueError:
                continue
            if not rest:
                if combo.points == total:
                    return [combo]
            elif self.score(rest) == total - combo.points:
                return [combo, *self.partition(rest)]
        raise AssertionError(f"{set_aside} has no partition into combinations")  # pragma: no cover

    def best_points_batch(self, rolls: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Best points of each roll (one roll per row of faces), 0 for a farkle; vectorised."""
        faces = np.asarray(rolls, dtype=np.int64)
        keys = POW7[faces - 1].sum(axis=1)
        best: npt.NDArray[np.int32] = self.best_points[keys]
        return best

    def _roll_key(self, roll: Iterable[int]) -> int:
        dice = _faces(roll, "roll", self.rules.dice)
        if not dice or len(dice) > self.rules.dice:
            raise DiceError(Refusal(Code.NOT_A_ROLL, {"roll": dice, "dice": self.rules.dice}))
        return dice_key(dice)


def _faces(dice: Iterable[int], name: str, most: int = 6) -> tuple[int, ...]:
    """Some dice as faces 1 to 6 (any iterable of whole numbers: numpy's too), or DiceError saying which (a roll
    of at most ``most`` dice)."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Iterable):
        expect(dice, (tuple, list), name, DiceError)  # says what it is instead
    faces = tuple(dice)
    try:
        if _FACE_SET.issuperset(faces) and not any(isinstance(d, (bool, float)) for d in faces):
            return tuple(map(int, faces))
    except TypeError:  # an unhashable value among them
        pass
    raise DiceError(Refusal(Code.NOT_A_ROLL, {"roll": faces, "dice": most}))


def scorer(rules: Rules) -> Scorer:
    """The tables of ``rules``, built once and shared."""
    expect(rules, Rules, "rules", RulesError)
    return _scorer(rules)


@functools.lru_cache(maxsize=64)
def _scorer(rules: Rules) -> Scorer:
    return Scorer(rules)
