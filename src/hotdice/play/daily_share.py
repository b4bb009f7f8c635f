"""The daily's share text: what a player tells others of their official attempt without spoiling its dice.

One mark per turn of the player, the outcome only (never a die):

=========  =====  =====  ==================================================================
mark       emoji  plain  the turn
=========  =====  =====  ==================================================================
farkle     🟥     x      scored nothing: a farkle, a bust, or a bank under the entry
hot dice   🔥     !      banked after every die had scored at least once (hot dice)
big bank   ⭐     \\*     banked :data:`BIG_BANK` points or more, without hot dice
banked     🟩     o      banked fewer points, without hot dice
=========  =====  =====  ==================================================================

The first that fits, in that order. The plain form (ASCII, for screen readers and for pasting where emoji do
not render) says the same with its legend. The words come from the catalogue, through the translator given.

The par is the optimal computer's (Hard's) score on the day's dice (:func:`daily_par`); the rank, on a
leaderboard, only the web has: the terminal's text says the rest.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Protocol

from hotdice.game.engine import EventKind, Game
from hotdice.play.modes import daily
from hotdice.play.players import computer_spec, make_player, play_game

__all__ = ["BIG_BANK", "PAR_LEVEL", "DailyShare", "Mark", "daily_par", "turn_marks"]

BIG_BANK = 1000
PAR_LEVEL = "hard"  # the computer whose score on the day's dice is the par


def daily_par(day: date, key: bytes | None = None) -> int:
    """The par of ``day``'s daily under the dice ``key`` (None: the one the terminal's daily plays with): the
    score of the :data:`PAR_LEVEL` computer on those dice, which sees only what a player sees."""
    setup = daily("Computer", now=datetime.combine(day, time(12), tzinfo=UTC), key=key)
    assert setup.dice is not None
    play_game(setup.game, [make_player(computer_spec(PAR_LEVEL), random.Random(day.isoformat()))], setup.dice)
    return setup.game.scores[0]


class Mark(enum.Enum):
    FARKLE = "farkle"
    HOT_DICE = "hot_dice"
    BIG_BANK = "big_bank"
    BANKED = "banked"


EMOJI = {Mark.FARKLE: "🟥", Mark.HOT_DICE: "🔥", Mark.BIG_BANK: "⭐", Mark.BANKED: "🟩"}
PLAIN = {Mark.FARKLE: "x", Mark.HOT_DICE: "!", Mark.BIG_BANK: "*", Mark.BANKED: "o"}
_LOST = frozenset({EventKind.FARKLE, EventKind.BUST, EventKind.ENTRY_MISSED})


def turn_marks(game: Game, seat: int = 0) -> list[Mark]:
    """One mark per turn ``seat`` started, in order."""
    marks: list[Mark] = []
    hot = lost = False
    banked = 0
    for event in game.events:
        if event.player != seat:
            continue
        if event.kind is EventKind.TURN:
            marks.append(Mark.BANKED)
            hot = lost = False
            banked = 0
        elif not marks:
            continue
        elif event.kind in _LOST:
            lost = True
        elif event.kind is EventKind.HOT_DICE:
            hot = True
        elif event.kind is EventKind.BANK:
            banked = event.points
        else:
            continue
        marks[-1] = _mark(lost, hot, banked)
    return marks


def _mark(lost: bool, hot: bool, banked: int) -> Mark:
    if lost:
        return Mark.FARKLE
    if hot:
        return Mark.HOT_DICE
    return Mark.BIG_BANK if banked >= BIG_BANK else Mark.BANKED


class Words(Protocol):
    """What wording needs of a translator (:class:`hotdice.i18n.Translator`)."""

    def __call__(self, key: str, **values: object) -> str: ...

    def plural(self, key: str, n: int, **values: object) -> str: ...

    def number(self, n: int) -> str: ...


@dataclass(frozen=True)
class DailyShare:
    """The figures of one official attempt at the time it is shared."""

    day: str  # ISO date: the same in every language, and what the daily's address takes
    score: int
    par: int  # the computer's score on the same dice
    rank: int | None  # on the leaderboard (None: the terminal, which has none)
    players: int | None  # how many official results the leaderboard holds now
    streak: int
    marks: Sequence[Mark]

    def _head(self, t: Words) -> str:
        streak = t.plural("share.streak", self.streak)
        if self.rank is None:
            return t("share.head_alone", day=self.day, score=t.number(self.score), par=t.number(self.par),
                     streak=streak)
        return t("share.head", day=self.day, score=t.number(self.score), par=t.number(self.par), rank=self.rank,
                 players=self.players, streak=streak)

    def text(self, t: Words) -> str:
        """The text with one emoji a turn."""
        return f"{self._head(t)}\n{''.join(EMOJI[m] for m in self.marks)}"

    def plain(self, t: Words) -> str:
        """The same without emoji: each turn's ASCII mark, then what they mean."""
        marks = " ".join(PLAIN[m] for m in self.marks)
        return f"{self._head(t)}\n{t('share.turns', marks=marks)}\n{t('share.legend', big=t.number(BIG_BANK))}"
