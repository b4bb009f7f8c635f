"""The one clock the web app reads "now" from (UTC): the system's, or, in a test, one moved past a daily's
midnight or a challenge's grace deadline, so that what happens then is shown over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = ["CLOCK", "Clock", "now"]


class Clock:
    """The system's UTC time, shifted by what a test moved it (nothing, in service)."""

    def __init__(self) -> None:
        self.shift = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.shift

    def move_to(self, moment: datetime) -> None:
        """Make "now" ``moment`` (aware), from which time goes on as usual."""
        self.shift = moment - datetime.now(UTC)


CLOCK = Clock()


def now() -> datetime:
    """What time it is for the web app: :data:`CLOCK`."""
    return CLOCK.now()
