"""The modes of play (RULES.md, "Modes"): each factory sets up a :class:`~hotdice.game.engine.Game` and its dice.

- ``solo``: one player, ten turns, best score. ``race``: one player, to the target in the fewest turns.
- ``versus``: a player against the computer, under the rules' end. ``together``: 2 to 8 people, one device.
- ``daily``: plain ``farkle``, ten turns, the same dice for everyone on a UTC day.
- ``challenge``: ten turns from a short code that carries a preset and a seed; everyone gets the same dice.
- ``pad``: the score pad for real dice: the table types in each roll, hotdice checks and keeps the scores.
- ``training``: a scoring quiz and bank-or-roll drills (:mod:`hotdice.play.training`); nothing there is a game.

The daily dice keys live in :mod:`hotdice.play.daily`, the ranking of results in :mod:`hotdice.play.ranking`.

Decision: in the ten-turn modes (solo, daily, challenge) only the score counts, so no target may end the
game before its ten turns: the target is lifted to the largest one the rules allow and the rules that exist
to end a race (the 4900 rule, five 1s winning at once) are off (:func:`ten_turn_rules`). Everything else,
the whole scoring table included, is the preset's.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from hotdice.game.dice import DiceSource, SecureDice, SeededDice
from hotdice.game.engine import MAX_PLAYERS, Action, Decision, Game, RollOff, roll_off
from hotdice.game.refusals import Code, Refusal, Refused
from hotdice.game.rules import MAX_TARGET, Rules
from hotdice.game.variants import VARIANTS, find_variant
from hotdice.play.codes import ALPHABET, READ, check_symbol, weighted_sum
from hotdice.play.daily import daily_day, daily_seed
from hotdice.play.names import clean_names

__all__ = [
    "SEED_BITS",
    "TEN_TURNS",
    "Challenge",
    "Mode",
    "Result",
    "Setup",
    "challenge",
    "daily",
    "pad",
    "race",
    "shown_rules",
    "solo",
    "ten_turn_rules",
    "together",
    "versus",
]

TEN_TURNS = 10


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


def solo(rules: Rules, name: str = "Player", dice: DiceSource | None = None) -> Setup:
    """One player, ten turns, for the best score."""
    game = Game(ten_turn_rules(rules), clean_names((name,)), turn_limit=TEN_TURNS)
    return Setup(Mode.SOLO, game, dice if dice is not None else SecureDice())


def race(rules: Rules, name: str = "Player", dice: DiceSource | None = None) -> Setup:
    """One player races to the target; the result is the turns taken.

    The rules' end decides when the target is reached: the first bank at or past it (last-round, first),
    a bank of exactly the target (exact), or five 1s where they win at once.
    """
    return Setup(Mode.RACE, Game(rules, clean_names((name,))), dice if dice is not None else SecureDice())


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
    game = Game(rules, clean_names((player, computer)), first=first)
    return Setup(Mode.VERSUS, game, dice, roll_off=off, computer=1)


def together(
    rules: Rules, names: Sequence[str], *, hold_roll_off: bool = False, dice: DiceSource | None = None, first: int = 0
) -> Setup:
    """Two to eight people passing one device; with ``hold_roll_off`` everyone rolls a die for who starts, else
    ``first`` starts (a rematch: the seat after the one that started)."""
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise Refused(Refusal(Code.TOGETHER_COUNT, {"max": MAX_PLAYERS, "players": len(names)}))
    dice = dice if dice is not None else SecureDice()
    off = roll_off(len(names), dice) if hold_roll_off else None
    game = Game(rules, clean_names(names), first=off.first if off is not None else first)
    return Setup(Mode.TOGETHER, game, dice, roll_off=off)


def pad(rules: Rules, names: Sequence[str], *, first: int = 0) -> Setup:
    """The score pad for real dice: the caller gives each roll to ``game.apply_roll`` as the table reads it."""
    return Setup(Mode.PAD, Game(rules, clean_names(names), first=first), None)


# -- daily -------------------------------------------------------------------------------------------


def daily(name: str = "Player", *, now: datetime | None = None, key: bytes | None = None) -> Setup:
    """Today's daily game (UTC): plain ``farkle``, ten turns, the same dice for everyone."""
    day = daily_day(now)
    seed = daily_seed(day, key)
    game = Game(ten_turn_rules(find_variant("farkle").rules), clean_names((name,)), turn_limit=TEN_TURNS)
    return Setup(Mode.DAILY, game, SeededDice(seed), seed=seed, day=day)


# -- friend challenge --------------------------------------------------------------------------------

# Codes are ten symbols of :mod:`hotdice.play.codes`, XXXXX-XXXXX: the preset's index in VARIANTS (presets are
# only ever appended), a 40-bit seed in eight symbols, and the check symbol.
SEED_BITS = 40


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
        symbols.append(check_symbol(symbols))
        text = "".join(ALPHABET[s] for s in symbols)
        return f"{text[:5]}-{text[5:]}"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Challenge:
        """Read a code as people type it: any case, I or L for 1, O for 0, dashes and spaces ignored."""
        compact = "".join(ch for ch in text.upper() if ch not in "- \t")
        for ch in compact:
            if ch not in READ:
                raise Refused(Refusal(Code.CHALLENGE_CHARACTER, {"character": ch}))
        if len(compact) != 10:
            raise Refused(Refusal(Code.CHALLENGE_LENGTH, {"length": len(compact)}))
        symbols = [READ[ch] for ch in compact]
        if weighted_sum(symbols):
            raise Refused(Refusal(Code.CHALLENGE_TYPO, {"code": text.strip()}))
        if symbols[0] >= len(VARIANTS):
            raise Refused(Refusal(Code.CHALLENGE_PRESET, {"code": text.strip()}))
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
    game = Game(found.rules, clean_names((name,)), turn_limit=TEN_TURNS)
    seed = found.dice_seed
    return Setup(Mode.CHALLENGE, game, SeededDice(seed), seed=seed, challenge=found)
