"""The daily streak against a brute force: walk back day by day from today (or yesterday) and from every day."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from hotdice.store.daily_streak import daily_streaks

TODAY = date(2026, 12, 4)
ONE = timedelta(days=1)


def run_back(days: set[date], start: date) -> int:
    n = 0
    while start - n * ONE in days:
        n += 1
    return n


@given(st.sets(st.integers(min_value=-40, max_value=3), max_size=30))
def test_the_streaks_are_the_runs_of_days_walked_back(offsets: set[int]) -> None:
    days = {TODAY + k * ONE for k in offsets}
    past = {d for d in days if d <= TODAY}
    current = run_back(past, TODAY) or run_back(past, TODAY - ONE)
    best = max((run_back(past, d) for d in past), default=0)
    assert daily_streaks(days, TODAY) == (current, best)


def test_a_day_missed_ends_it_and_today_not_yet_played_does_not() -> None:
    assert daily_streaks([TODAY - 2 * ONE, TODAY - ONE], TODAY) == (2, 2)  # today still to play
    assert daily_streaks([TODAY - 3 * ONE, TODAY - 2 * ONE], TODAY) == (0, 2)  # yesterday missed
    assert daily_streaks([TODAY - ONE, TODAY, TODAY], TODAY) == (2, 2)
    assert daily_streaks([], TODAY) == (0, 0)
