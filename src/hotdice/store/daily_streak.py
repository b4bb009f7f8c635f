"""The daily streak: consecutive UTC days with a finished official daily attempt, current and best.

A day missed ends the streak; today not yet played does not (the streak still counts up to yesterday, and
today's attempt, once finished, adds to it). Only finished games are recorded, so an attempt the day's end
cut short (the web's reveal at midnight UTC) counts as a day missed.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

__all__ = ["daily_streaks"]

_DAY = timedelta(days=1)


def daily_streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, best) over the days with a finished official attempt; days after ``today`` are ignored."""
    played = sorted({d for d in days if d <= today})
    best = run = 0
    previous: date | None = None
    for day in played:
        run = run + 1 if previous is not None and day - previous == _DAY else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= _DAY else 0
    return current, best
