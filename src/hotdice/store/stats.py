"""Statistics and records of finished games, read from the engine's events and kept in the store.

Decisions:

- A game is recorded from one player's seat (a game of "together" once per human player: the caller decides).
  Training is refused, so nothing played there can reach statistics or records.
- Wins and win streaks count only games with someone to beat (two players or more); a shared win is a win.
- An unofficial game (a later attempt at a daily, whose dice the player has already seen) counts as a game
  played and shows among daily results, but in no record, streak or luck figure.
- Streaks and runs of turns without a farkle follow the order games were recorded, from one game to the next.
- Farkle rates are grouped per rules string and number of dice rolled, next to the exact rate of those rules:
  the rate depends on the scoring knobs only, but one row per rules string is exact and simple to read.
- A turn is every turn the player started, including one that five 1s ended at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from hotdice.analysis.odds import roll_odds
from hotdice.game.engine import EventKind, Game, Termination
from hotdice.game.rules import Rules
from hotdice.play.modes import TEN_TURNS, Mode
from hotdice.store import NAME_LENGTH, GameResult, RollCount, Store
from hotdice.store.daily_streak import daily_streaks

__all__ = [
    "MODES",
    "TEN_TURN_MODES",
    "DailyResult",
    "FarkleRate",
    "Stats",
    "Tally",
    "daily_taken",
    "record_game",
    "statistics",
]

MODES = tuple(m.value for m in Mode)
TEN_TURN_MODES = (Mode.SOLO.value, Mode.DAILY.value, Mode.CHALLENGE.value)  # "best ten-turn score" is a record
TRAINING = Mode.TRAINING.value
DAILY = Mode.DAILY.value
RACE = Mode.RACE.value


def record_game(
    session_or_store: Session | Store,
    game: Game,
    *,
    player: int,
    mode: str,
    opponent: str | None,
    record_json: str | None = None,
    day: date | None = None,
    official: bool = True,
) -> GameResult:
    """Store one finished game from the seat of ``player``; return the stored result.

    A daily's ``day`` defaults to today (UTC: the day changes at midnight UTC); if that day already has an
    official result, this one is stored as unofficial. Given a session, the caller commits.
    """
    if mode == TRAINING:
        raise ValueError("a training game is never recorded: nothing played in training counts in statistics")
    if mode not in MODES:
        raise ValueError(f"unknown mode '{mode}'; modes are: {', '.join(m for m in MODES if m != TRAINING)}")
    if game.outcome is None:
        raise ValueError("the game is not over: only finished games are recorded")
    if not 0 <= player < len(game.players):
        raise ValueError(f"player {player} is not one of the {len(game.players)} players")
    if mode != DAILY and day is not None:
        raise ValueError(f"a day is recorded for daily games only, not for {mode}")
    for what, name in (("player name", game.players[player]), ("opponent", opponent)):
        if name is not None and len(name) > NAME_LENGTH:
            raise ValueError(f"{what} is longer than {NAME_LENGTH} characters")
    if mode == DAILY and day is None:
        day = datetime.now(UTC).date()
    if isinstance(session_or_store, Store):
        with session_or_store.session() as session:
            result = _record(session, game, player, mode, opponent, record_json, day, official)
            session.commit()
            return result
    return _record(session_or_store, game, player, mode, opponent, record_json, day, official)


def daily_taken(session_or_store: Session | Store, day: date) -> bool:
    """Whether ``day``'s daily already has its official result: a later attempt can only be unofficial."""
    if isinstance(session_or_store, Store):
        with session_or_store.session() as session:
            return daily_taken(session, day)
    return session_or_store.scalar(select(GameResult.id).where(GameResult.official_day == day)) is not None


def _record(
    session: Session,
    game: Game,
    player: int,
    mode: str,
    opponent: str | None,
    record_json: str | None,
    day: date | None,
    official: bool,
) -> GameResult:
    assert game.outcome is not None
    if day is not None and official:
        official = not daily_taken(session, day)
    turns: list[bool] = []  # per turn of the player: did it end in a farkle
    rolls: Counter[int] = Counter()
    farkles: Counter[int] = Counter()
    best_bank = hot_dice = 0
    dice = 0
    for event in game.events:
        if event.player != player:
            continue
        if event.kind is EventKind.TURN:
            turns.append(False)
        elif event.kind is EventKind.ROLL:
            dice = len(event.dice)
            rolls[dice] += 1
        elif event.kind is EventKind.FARKLE:
            farkles[dice] += 1
            turns[-1] = True
        elif event.kind is EventKind.HOT_DICE:
            hot_dice += 1
        elif event.kind is EventKind.BANK:
            best_bank = max(best_bank, event.points)
    runs = _farkle_free_runs(turns)
    result = GameResult(
        mode=mode,
        rules=str(game.rules),
        player=player,
        player_name=game.players[player],
        players=len(game.players),
        opponent=opponent,
        score=game.scores[player],
        won=player in game.outcome.winners,
        termination=game.outcome.termination.value,
        turn_limit=game.turn_limit,
        turns=len(turns),
        best_bank=best_bank,
        hot_dice=hot_dice,
        farkles=sum(turns),
        farkle_free_first=runs[0],
        farkle_free_best=max(runs),
        farkle_free_last=runs[-1],
        day=day,
        official=official,
        official_day=day if official else None,
        record=record_json,
    )
    result.rolls = [RollCount(dice=n, rolls=rolls[n], farkles=farkles[n]) for n in sorted(rolls)]
    session.add(result)
    session.flush()
    return result


def _farkle_free_runs(farkled: Sequence[bool]) -> list[int]:
    """Lengths of the stretches of turns between farkles, the one before the first and after the last included."""
    runs = [0]
    for f in farkled:
        if f:
            runs.append(0)
        else:
            runs[-1] += 1
    return runs


@dataclass(frozen=True)
class Tally:
    played: int
    won: int | None  # None: no game had someone to beat


@dataclass(frozen=True)
class FarkleRate:
    """Rolls of ``dice`` dice under ``rules``: how many were farkles, and the exact expected rate."""

    rules: str
    dice: int
    rolls: int
    farkles: int
    expected: Fraction

    @property
    def rate(self) -> float:
        return self.farkles / self.rolls


@dataclass(frozen=True)
class DailyResult:
    day: date
    score: int
    official: bool


@dataclass(frozen=True)
class Stats:
    games: int
    by_mode: dict[str, Tally]
    by_opponent: dict[str, Tally]
    best_turn: int | None  # largest single bank
    best_ten_turns: int | None  # best score of a ten-turn solo, daily or challenge game
    fewest_turns: int | None  # fewest turns to reach the target in a race
    farkle_rates: tuple[FarkleRate, ...]
    hot_dice: int
    longest_win_streak: int
    current_win_streak: int
    longest_farkle_free_run: int  # turns in a row without a farkle
    dailies: tuple[DailyResult, ...]
    daily_streak: int = 0  # consecutive UTC days with a finished official daily, up to today or yesterday
    best_daily_streak: int = 0

    def to_json(self) -> dict[str, Any]:
        def tallies(by: dict[str, Tally]) -> list[dict[str, Any]]:
            return [{"name": k, "played": t.played, "won": t.won} for k, t in by.items()]

        return {
            "games": self.games,
            "by_mode": tallies(self.by_mode),
            "by_opponent": tallies(self.by_opponent),
            "best_turn": self.best_turn,
            "best_ten_turns": self.best_ten_turns,
            "fewest_turns": self.fewest_turns,
            "farkle_rates": [
                {
                    "rules": f.rules,
                    "dice": f.dice,
                    "rolls": f.rolls,
                    "farkles": f.farkles,
                    "rate": f.rate,
                    "expected": str(f.expected),
                    "expected_rate": float(f.expected),
                }
                for f in self.farkle_rates
            ],
            "hot_dice": self.hot_dice,
            "longest_win_streak": self.longest_win_streak,
            "current_win_streak": self.current_win_streak,
            "longest_farkle_free_run": self.longest_farkle_free_run,
            "dailies": [{"day": d.day.isoformat(), "score": d.score, "official": d.official} for d in self.dailies],
            "daily_streak": self.daily_streak,
            "best_daily_streak": self.best_daily_streak,
        }


def statistics(session_or_store: Session | Store, owner: str | None = None, today: date | None = None) -> Stats:
    """Every figure over the games recorded so far (only ``owner``'s when given: "" is this device's
    terminal player, a web player is known by their device token); ``today`` (UTC, by default the clock's)
    is the day the daily streak runs up to."""
    query = select(GameResult).options(selectinload(GameResult.rolls)).order_by(GameResult.id)
    if owner is not None:
        query = query.where(GameResult.owner == owner)
    if isinstance(session_or_store, Store):
        with session_or_store.session() as session:
            games = list(session.scalars(query))
    else:
        games = list(session_or_store.scalars(query))
    counted = [g for g in games if g.official]
    longest_streak, current_streak = _streaks([g.won for g in counted if g.players > 1])
    daily_streak, best_daily_streak = daily_streaks(
        (g.official_day for g in games if g.official_day is not None), today or datetime.now(UTC).date()
    )
    return Stats(
        games=len(games),
        by_mode=_tallies(games, lambda g: g.mode),
        by_opponent=_tallies([g for g in games if g.opponent is not None], lambda g: g.opponent or ""),
        best_turn=max((g.best_bank for g in counted if g.best_bank), default=None),
        best_ten_turns=max(
            (g.score for g in counted if g.mode in TEN_TURN_MODES and g.turn_limit == TEN_TURNS), default=None
        ),
        fewest_turns=min(
            (g.turns for g in counted if g.mode == RACE and g.won and g.termination != Termination.TURN_LIMIT.value),
            default=None,
        ),
        farkle_rates=_farkle_rates(counted),
        hot_dice=sum(g.hot_dice for g in counted),
        longest_win_streak=longest_streak,
        current_win_streak=current_streak,
        longest_farkle_free_run=_longest_farkle_free_run(counted),
        dailies=tuple(
            DailyResult(g.day, g.score, g.official)
            for g in sorted(games, key=lambda g: (g.day or date.min, g.id))
            if g.day is not None
        ),
        daily_streak=daily_streak,
        best_daily_streak=best_daily_streak,
    )


def _tallies(games: Iterable[GameResult], key: Callable[[GameResult], str]) -> dict[str, Tally]:
    played: Counter[str] = Counter()
    won: dict[str, int] = {}
    for g in games:
        name = key(g)
        played[name] += 1
        if g.players > 1:
            won[name] = won.get(name, 0) + g.won
    return {name: Tally(played[name], won.get(name)) for name in sorted(played)}


def _farkle_rates(games: Iterable[GameResult]) -> tuple[FarkleRate, ...]:
    rolls: Counter[tuple[str, int]] = Counter()
    farkles: Counter[tuple[str, int]] = Counter()
    for g in games:
        for r in g.rolls:
            rolls[g.rules, r.dice] += r.rolls
            farkles[g.rules, r.dice] += r.farkles
    return tuple(
        FarkleRate(rules, n, rolls[rules, n], farkles[rules, n], roll_odds(Rules.parse(rules), n).farkle)
        for rules, n in sorted(rolls)
    )


def _streaks(wins: Iterable[bool]) -> tuple[int, int]:
    """The longest run of wins, and the run of wins the last games make."""
    longest = current = 0
    for won in wins:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return longest, current


def _longest_farkle_free_run(games: Iterable[GameResult]) -> int:
    longest = run = 0
    for g in games:
        if g.farkles == 0:
            run += g.turns
        else:
            longest = max(longest, run + g.farkle_free_first, g.farkle_free_best)
            run = g.farkle_free_last
        longest = max(longest, run)
    return longest
