"""The terminal player's games ("Your games", issue 25): what waits for them (today's daily, not yet played
officially), what is in progress (the saved games, to resume), what is finished (the latest, each with its
record for its review). Gathered and typed here, so that the terminal's screens only show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from hotdice.play.modes import Mode
from hotdice.play.players import LEVELS
from hotdice.store import GameResult, Store
from hotdice.store.saves import SavedGame, resumable
from hotdice.store.stats import daily_taken

__all__ = ["HISTORY", "FinishedGame", "YourGames", "finished_games", "your_games"]

HISTORY = 9  # the latest finished games listed: one digit key each opens its review


@dataclass(frozen=True)
class FinishedGame:
    """A finished game of the terminal's player, as its statistics recorded it."""

    mode: str
    day: date  # the day it was recorded (UTC)
    score: int
    won: bool | None  # None: played alone, nobody to beat
    level: str | None  # the computer's level in a game against it
    record: str  # the game's record (JSON): its review replays it


@dataclass(frozen=True)
class YourGames:
    """The three lists; an empty one is for the screen to leave out."""

    daily: date | None  # today, while its daily has neither an official result nor an attempt in progress
    in_progress: tuple[SavedGame, ...]  # the latest saved first
    finished: tuple[FinishedGame, ...]  # the latest first


def finished_games(store: Store, limit: int = HISTORY) -> list[FinishedGame]:
    """The terminal player's latest finished games whose record was kept, the latest first."""
    query = (select(GameResult).where(GameResult.owner == "", GameResult.record.is_not(None))
             .order_by(GameResult.id.desc()).limit(limit))
    with store.session() as session:
        return [FinishedGame(g.mode, g.recorded_at.date(), g.score, g.won if g.players > 1 else None,
                             g.opponent if g.opponent in LEVELS else None, g.record or "")
                for g in session.scalars(query)]


def your_games(store: Store, today: date) -> YourGames:
    """The player's games on ``today`` (UTC): what waits for them, what is in progress, what is finished."""
    saved = resumable()
    started = any(s.setup.mode is Mode.DAILY and s.setup.day == today for s in saved)
    daily = None if started or daily_taken(store, today) else today
    return YourGames(daily, tuple(saved), tuple(finished_games(store)))
