"""The modes of play (RULES.md, "Modes"): each factory sets up a :class:`~hotdice.engine.Game` and its dice.

- ``solo``: one player, ten turns, best score. ``race``: one player, to the target in the fewest turns.
- ``versus``: a player against the computer, under the rules' end. ``together``: 2 to 8 people, one device.
- ``daily``: plain ``farkle``, ten turns, the same dice for everyone on a UTC day.
- ``challenge``: ten turns from a short code that carries a preset and a seed; everyone gets the same dice.
- ``pad``: the score pad for real dice: the table types in each roll, hotdice checks and keeps the scores.
- ``training``: a scoring quiz and bank-or-roll drills; nothing there is a game, nothing is ever recorded.

Decision: in the ten-turn modes (solo, daily, challenge) only the score counts, so no target may end the
game before its ten turns: the target is lifted to the largest one the rules allow and the rules that exist
to end a race (the 4900 rule, five 1s winning at once) are off (:func:`ten_turn_rules`). Everything else,
the whole scoring table included, is the preset's.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import os
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from hotdice.dice import DiceSource, SecureDice, SeededDice
from hotdice.engine import MAX_PLAYERS, Action, Decision, Game, Phase, RollOff, roll_off
from hotdice.expectation import may_bank, turn_values
from hotdice.rules import MAX_TARGET, Rules
from hotdice.scoring import DiceError, SetAside, scorer
from hotdice.variants import VARIANTS, find_variant

__all__ = [
    "DAILY_KEY_ENV",
    "DEFAULT_DAILY_KEY",
    "TEN_TURNS",
    "Answer",
    "Challenge",
    "Drill",
    "Mode",
    "Ranked",
    "Result",
    "ScoringQuestion",
    "Setup",
    "challenge",
    "compare",
    "daily",
    "daily_day",
    "daily_seed",
    "pad",
    "race",
    "shown_rules",
    "solo",
    "ten_turn_rules",
    "together",
    "versus",
]

TEN_TURNS = 10
DAILY_KEY_ENV = "HOTDICE_DAILY_KEY"
# Not a secret: it lets the daily game be played offline, and anyone can read it here. A server that wants
# the day's dice to stay unknown until the day sets HOTDICE_DAILY_KEY to a key of its own.
DEFAULT_DAILY_KEY = b"hotdice daily dice, offline default key (not secret)"


class Mode(enum.StrEnum):
    """The mode identifiers used across hotdice (records, statistics, front ends)."""

    SOLO = "solo"
    RACE = "race"
    VERSUS = "versus"
    TOGETHER = "together"
    DAILY = "daily"
    CHALLENGE = "challenge"
    TRAINING = "training"
    PAD = "pad"


def ten_turn_rules(rules: Rules) -> Rules:
    """The rules of a ten-turn game: the same, but no target, 4900 rule or five 1s win can end it early."""
    return rules.replace(target=MAX_TARGET, rule_4900=False, five_1s_win=False)


# -- games -------------------------------------------------------------------------------------------


def shown_rules(rules: Rules | str) -> str:
    """The rules string as the players chose them: for ten-turn rules (the target lifted to the largest),
    without what :func:`ten_turn_rules` lifted."""
    rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
    text = str(rules)
    if rules.target != MAX_TARGET:
        return text
    lifted = {f"target={MAX_TARGET}", "rule_4900=no", "five_1s_win=no"}
    return ",".join(part for part in text.split(",") if part not in lifted)


@dataclass(frozen=True)
class Result:
    """One player's result: the score, and the turns they played; ``finished`` False: an attempt ended as it
    stood (its dice key was revealed before it was played out)."""

    name: str
    score: int
    turns: int
    mode: Mode
    finished: bool = True


@dataclass(frozen=True)
class Ranked:
    """A place in :func:`compare`: equal results share a rank (1, 1, 3, ...)."""

    rank: int
    result: Result


@dataclass
class Setup:
    """A game of some mode, ready to play: the game, where its dice come from, and what the mode adds."""

    mode: Mode
    game: Game
    dice: DiceSource | None  # None for the score pad: the table's own dice are typed in
    seed: bytes | None = None  # key of the SeededDice (daily, challenge), for the game's record
    roll_off: RollOff | None = None  # who started, when the players rolled for it
    day: date | None = None  # the UTC day of a daily game
    challenge: Challenge | None = None
    computer: int | None = None  # the computer's seat in a game against it

    def play(self, action: Action | Decision | str) -> None:
        """Apply an action or a decision; a roll takes its dice from the mode's source."""
        if self.dice is None:
            raise ValueError("the score pad rolls no dice: type in the table's roll with game.apply_roll")
        self.game.play(action, self.dice)

    def results(self) -> tuple[Result, ...]:
        """Every player's result, once the game is over."""
        game = self.game
        if game.outcome is None:
            raise ValueError("the game is not over yet: results come at the end")
        return tuple(
            Result(name, score, played, self.mode)
            for name, score, played in zip(game.players, game.outcome.scores, game.turns_played, strict=True)
        )


def compare(results: Iterable[Result]) -> tuple[Ranked, ...]:
    """Rank results of one mode, best first: a race by fewest turns, any other mode by highest score; every
    unfinished result below every finished one.

    Ties on the main measure go to the other one (higher score in a race, fewer turns otherwise); results
    still equal share their rank.
    """
    found = list(results)
    modes = {r.mode for r in found}
    if len(modes) > 1:
        raise ValueError(f"results of different modes cannot be compared: {', '.join(sorted(modes))}")

    def measure(r: Result) -> tuple[bool, int, int]:
        return (not r.finished, *((r.turns, -r.score) if r.mode is Mode.RACE else (-r.score, r.turns)))

    found.sort(key=lambda r: (measure(r), r.name))
    ranked: list[Ranked] = []
    for place, result in enumerate(found, start=1):
        tied = bool(ranked) and measure(ranked[-1].result) == measure(result)
        ranked.append(Ranked(ranked[-1].rank if tied else place, result))
    return tuple(ranked)


def solo(rules: Rules, name: str = "Player", dice: DiceSource | None = None) -> Setup:
    """One player, ten turns, for the best score."""
    game = Game(ten_turn_rules(rules), _names((name,)), turn_limit=TEN_TURNS)
    return Setup(Mode.SOLO, game, dice if dice is not None else SecureDice())


def race(rules: Rules, name: str = "Player", dice: DiceSource | None = None) -> Setup:
    """One player races to the target; the result is the turns taken.

    The rules' end decides when the target is reached: the first bank at or past it (last-round, first),
    a bank of exactly the target (exact), or five 1s where they win at once.
    """
    return Setup(Mode.RACE, Game(rules, _names((name,))), dice if dice is not None else SecureDice())


def versus(
    rules: Rules,
    player: str = "You",
    computer: str = "Computer",
    *,
    computer_starts: bool = False,
    hold_roll_off: bool = False,
    dice: DiceSource | None = None,
) -> Setup:
    """A player against the computer (seat 1), under the rules' end. The player starts unless told otherwise."""
    dice = dice if dice is not None else SecureDice()
    off = roll_off(2, dice) if hold_roll_off else None
    first = off.first if off is not None else int(computer_starts)
    game = Game(rules, _names((player, computer)), first=first)
    return Setup(Mode.VERSUS, game, dice, roll_off=off, computer=1)


def together(
    rules: Rules, names: Sequence[str], *, hold_roll_off: bool = False, dice: DiceSource | None = None
) -> Setup:
    """Two to eight people passing one device; with ``hold_roll_off`` everyone rolls a die for who starts."""
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"playing together takes 2 to 8 players, not {len(names)}")
    dice = dice if dice is not None else SecureDice()
    off = roll_off(len(names), dice) if hold_roll_off else None
    game = Game(rules, _names(names), first=off.first if off is not None else 0)
    return Setup(Mode.TOGETHER, game, dice, roll_off=off)


def pad(rules: Rules, names: Sequence[str], *, first: int = 0) -> Setup:
    """The score pad for real dice: the caller gives each roll to ``game.apply_roll`` as the table reads it."""
    return Setup(Mode.PAD, Game(rules, _names(names), first=first), None)


def _names(names: Sequence[str]) -> tuple[str, ...]:
    cleaned = tuple(n.strip() for n in names)
    if any(not n for n in cleaned):
        raise ValueError("every player needs a name")
    if len(set(cleaned)) != len(cleaned):
        raise ValueError(f"two players have the same name: {', '.join(cleaned)}")
    return cleaned


# -- daily -------------------------------------------------------------------------------------------


def daily_day(now: datetime | None = None) -> date:
    """The day of the daily game at ``now``: the UTC date, which changes at midnight UTC."""
    now = datetime.now(UTC) if now is None else now
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("the time of a daily game needs a time zone, e.g. datetime.now(UTC)")
    return now.astimezone(UTC).date()


def daily_seed(day: date, key: bytes | None = None) -> bytes:
    """HMAC-SHA256(key, "daily/YYYY-MM-DD"): the dice key of that day's game."""
    if key is None:
        key = os.environ.get(DAILY_KEY_ENV, "").encode() or DEFAULT_DAILY_KEY
    return hmac.new(key, f"daily/{day.isoformat()}".encode(), hashlib.sha256).digest()


def daily(name: str = "Player", *, now: datetime | None = None, key: bytes | None = None) -> Setup:
    """Today's daily game (UTC): plain ``farkle``, ten turns, the same dice for everyone."""
    day = daily_day(now)
    seed = daily_seed(day, key)
    game = Game(ten_turn_rules(find_variant("farkle").rules), _names((name,)), turn_limit=TEN_TURNS)
    return Setup(Mode.DAILY, game, SeededDice(seed), seed=seed, day=day)


# -- friend challenge --------------------------------------------------------------------------------

# Crockford's base 32: digits and capitals without I, L, O, U. Codes are ten symbols, XXXXX-XXXXX: the
# preset's index in VARIANTS (presets are only ever appended), a 40-bit seed in eight symbols, and a check
# symbol chosen so that sum(alpha**i * symbol[i]) = 0 in GF(32). Any one wrong symbol, and any two
# neighbours swapped, break that sum, so a typo is always refused.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ = {ch: i for i, ch in enumerate(ALPHABET)} | {"I": 1, "L": 1, "O": 0}
SEED_BITS = 40
_EXP = [0] * 62
_LOG = [0] * 32
_value = 1
for _i in range(31):  # powers of alpha, a root of the primitive x^5 + x^2 + 1
    _EXP[_i] = _EXP[_i + 31] = _value
    _LOG[_value] = _i
    _value <<= 1
    if _value & 32:
        _value ^= 0b100101


def _weighted_sum(symbols: Sequence[int]) -> int:
    total = 0
    for i, s in enumerate(symbols):
        if s:
            total ^= _EXP[_LOG[s] + i]
    return total


@dataclass(frozen=True)
class Challenge:
    """A friend challenge: a preset (no house rules in challenges) and a seed, written as a short code."""

    preset: str
    seed: int

    def __post_init__(self) -> None:
        find_variant(self.preset)
        if not 0 <= self.seed < 1 << SEED_BITS:
            raise ValueError(f"a challenge seed is a number from 0 to 2**{SEED_BITS} - 1, not {self.seed}")

    @classmethod
    def new(cls, preset: str = "farkle", rng: random.Random | None = None) -> Challenge:
        """A fresh challenge; the seed comes from ``rng`` if given, else from the secure generator."""
        seed = rng.getrandbits(SEED_BITS) if rng is not None else secrets.randbits(SEED_BITS)
        return cls(find_variant(preset).name, seed)

    @property
    def code(self) -> str:
        index = [v.name for v in VARIANTS].index(self.preset)
        symbols = [index] + [(self.seed >> (5 * (7 - i))) & 31 for i in range(8)]
        check = _weighted_sum(symbols)
        symbols.append(_EXP[(_LOG[check] - 9) % 31] if check else 0)
        text = "".join(ALPHABET[s] for s in symbols)
        return f"{text[:5]}-{text[5:]}"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Challenge:
        """Read a code as people type it: any case, I or L for 1, O for 0, dashes and spaces ignored."""
        compact = "".join(ch for ch in text.upper() if ch not in "- \t")
        for ch in compact:
            if ch not in _READ:
                raise ValueError(f"'{ch}' is not in challenge codes: they use 0-9 and A-Z without I, L, O, U")
        if len(compact) != 10:
            raise ValueError(f"a challenge code has 10 characters (XXXXX-XXXXX), not {len(compact)}")
        symbols = [_READ[ch] for ch in compact]
        if _weighted_sum(symbols):
            raise ValueError(f"challenge code '{text.strip()}' has a typo: check it against the code you were sent")
        if symbols[0] >= len(VARIANTS):
            raise ValueError(f"challenge code '{text.strip()}' names a preset this hotdice does not know")
        seed = 0
        for s in symbols[1:9]:
            seed = seed << 5 | s
        return cls(VARIANTS[symbols[0]].name, seed)

    @property
    def rules(self) -> Rules:
        return ten_turn_rules(find_variant(self.preset).rules)

    @property
    def dice_seed(self) -> bytes:
        """The key of the SeededDice everyone who enters this code plays with."""
        return f"challenge/{self.code}".encode()


def challenge(code: Challenge | str, name: str = "Player") -> Setup:
    """The ten turns of a friend challenge, with the same dice for everyone who enters the code."""
    found = code if isinstance(code, Challenge) else Challenge.parse(code)
    game = Game(found.rules, _names((name,)), turn_limit=TEN_TURNS)
    seed = found.dice_seed
    return Setup(Mode.CHALLENGE, game, SeededDice(seed), seed=seed, challenge=found)


# -- training (never recorded: these are questions, not games) ---------------------------------------


@dataclass(frozen=True)
class Answer:
    """Whether an answer is right, and why."""

    correct: bool
    explanation: str


def _points(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _dice(dice: Iterable[int]) -> str:
    return " ".join(map(str, dice))


@dataclass(frozen=True)
class ScoringQuestion:
    """A scoring quiz question: what is the best score of this roll, and which set-aside gives it?"""

    rules: Rules
    roll: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.roll) <= self.rules.dice or any(d not in range(1, 7) for d in self.roll):
            raise DiceError(f"{self.roll} is not a roll of 1 to {self.rules.dice} dice")

    @classmethod
    def random(cls, rules: Rules, rng: random.Random, dice: int | None = None) -> ScoringQuestion:
        """A random roll of ``dice`` dice (a random number of them if not given)."""
        n = rng.randint(1, rules.dice) if dice is None else dice
        return cls(rules, tuple(rng.randint(1, 6) for _ in range(n)))

    @property
    def best_score(self) -> int:
        best = scorer(self.rules).best(self.roll)
        return best.points if best else 0

    @property
    def best_set_aside(self) -> SetAside | None:
        """The set-aside with the most points, fewest dice among equals; None on a farkle."""
        best = scorer(self.rules).best(self.roll)
        return best.keep if best else None

    @property
    def explanation(self) -> str:
        keep = self.best_set_aside
        if keep is None:
            return f"{_dice(self.roll)}: nothing scores, a farkle (0)"
        parts = ", ".join(f"{c.name} = {c.points}" for c in scorer(self.rules).partition(keep))
        return f"{_dice(self.roll)}: {parts}; set aside {keep} for {self.best_score}"

    def check_score(self, answer: int) -> Answer:
        right = answer == self.best_score
        return Answer(right, ("Right. " if right else f"No, {self.best_score}. ") + self.explanation)

    def check_set_aside(self, answer: str | Iterable[int]) -> Answer:
        """Right if the set-aside is legal and worth the best score; "farkle" (or "none") when nothing scores."""
        if isinstance(answer, str) and answer.strip().lower() in ("farkle", "none", "nothing", "-", ""):
            right = self.best_set_aside is None
        else:
            keep = SetAside.parse(answer, self.rules.dice)
            option = scorer(self.rules).option_for(self.roll, keep)
            right = option is not None and option.points == self.best_score
        return Answer(right, ("Right. " if right else "No. ") + self.explanation)


@dataclass(frozen=True)
class Drill:
    """A bank-or-roll drill: with this turn total and these dice in hand, bank or roll? Solo view (exact)."""

    rules: Rules
    turn_total: int
    dice: int
    entered: bool = True
    hot_dice: bool = False

    def __post_init__(self) -> None:
        turn_values(self.rules).value(self.turn_total, self.dice, entered=self.entered, hot_dice=self.hot_dice)
        if not may_bank(self.rules, self.turn_total, entered=self.entered, hot_dice=self.hot_dice):
            raise ValueError(
                f"banking {self.turn_total} is not allowed here under these rules, so there is nothing to decide"
            )

    @classmethod
    def random(cls, rules: Rules, rng: random.Random) -> Drill:
        """A state met in play: a turn played with random dice and set-asides, stopped where banking is allowed."""
        table = ten_turn_rules(rules).replace(entry=0)
        while True:
            game = Game(table, ("drill",))
            while game.turns_played == (0,):
                if game.phase is Phase.SET_ASIDE:
                    game.apply(rng.choice(game.options()).keep)
                elif game.why_not_bank() is None and rng.random() < 0.4:
                    return cls(rules, game.turn_total, game.dice_to_roll, hot_dice=game.hot_dice)
                else:
                    game.apply("roll")
                    game.apply_roll(tuple(rng.randint(1, 6) for _ in range(game.dice_to_roll)))

    @property
    def roll_value(self) -> float:
        return turn_values(self.rules).roll_value(self.turn_total, self.dice, entered=self.entered)

    @property
    def bank_value(self) -> float:
        bank = turn_values(self.rules).bank_value(self.turn_total, entered=self.entered, hot_dice=self.hot_dice)
        assert bank is not None
        return bank

    @property
    def answer(self) -> str:
        """ "roll" or "bank": the choice with the most expected points (bank when they are equal)."""
        tv = turn_values(self.rules)
        rolling = tv.should_roll(self.turn_total, self.dice, entered=self.entered, hot_dice=self.hot_dice)
        return "roll" if rolling else "bank"

    @property
    def explanation(self) -> str:
        hot = " (hot dice)" if self.hot_dice else ""
        dice = f"{self.dice} {'die' if self.dice == 1 else 'dice'}{hot}"
        return (
            f"Rolling {dice} is worth {_points(self.roll_value)} expected points "
            f"against {_points(self.bank_value)} for banking: {self.answer}"
        )

    def check(self, answer: str) -> Answer:
        """Right if the answer is worth as much as the best choice (both are right when they are equal)."""
        word = {"r": "roll", "roll": "roll", "b": "bank", "bank": "bank"}.get(answer.strip().lower())
        if word is None:
            raise ValueError(f"'{answer}' is not an answer: say roll or bank")
        chosen = self.roll_value if word == "roll" else self.bank_value
        right = chosen >= max(self.roll_value, self.bank_value) - 1e-9
        return Answer(right, ("Right. " if right else "No. ") + self.explanation)
