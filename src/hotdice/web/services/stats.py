"""A web player's statistics and records: the terminal's figures (:func:`hotdice.store.stats.statistics`) over that
player's games only, and the data of the two charts."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.analysis.odds import roll_odds
from hotdice.game.rules import Rules
from hotdice.play.daily import daily_day
from hotdice.store import GameResult
from hotdice.store.stats import FarkleRate, Stats, statistics
from hotdice.store.web_models import WebPlayer
from hotdice.web import clock
from hotdice.web.charts import Bar
from hotdice.web.db import as_owner

__all__ = ["PlayerStats", "player_stats"]


@dataclass(frozen=True)
class PlayerStats:
    stats: Stats
    farkle_bars: dict[str, list[Bar]]  # per rules string: every number of dice, rolled or not
    scores: dict[str, list[tuple[int, int]]]  # per mode: (game number, score), oldest first


def _bars(rates: tuple[FarkleRate, ...]) -> dict[str, list[Bar]]:
    out: dict[str, list[Bar]] = {}
    for rules in sorted({f.rules for f in rates}, key=lambda r: -sum(f.rolls for f in rates if f.rules == r)):
        parsed = Rules.parse(rules)
        seen = {f.dice: f for f in rates if f.rules == rules}
        out[rules] = [
            Bar(n, seen[n].rate if n in seen else None, float(roll_odds(parsed, n).farkle),
                seen[n].rolls if n in seen else 0)
            for n in range(1, parsed.dice + 1)
        ]
    return out


def player_stats(session: Session, player: WebPlayer | None) -> PlayerStats | None:
    """None for a visitor who has never played here."""
    if player is None:
        return None
    with as_owner(session, player.id):
        stats = statistics(session, today=daily_day(clock.now()))
        rows = session.execute(select(GameResult.mode, GameResult.score).order_by(GameResult.id)).all()
    scores: dict[str, list[tuple[int, int]]] = {}
    for number, (mode, score) in enumerate(rows, start=1):
        scores.setdefault(mode, []).append((number, score))
    return PlayerStats(stats, _bars(stats.farkle_rates), scores)
