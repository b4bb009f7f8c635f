"""The web service's database: the statistics store plus the web tables, and sessions that know whose
statistics they read and write.

Many people share one database here, while :mod:`hotdice.stats` reads and records the games of "the
player". An :class:`OwnedSession` set to an owner (:func:`as_owner`) shows :func:`hotdice.stats.statistics`
and :func:`hotdice.stats.record_game` only that owner's results, and stamps the results it adds with the
owner: SQLAlchemy's documented way to add global criteria (``with_loader_criteria`` in ``do_orm_execute``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import URL, event
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker, with_loader_criteria

import hotdice.store.web_models  # noqa: F401  (registers the web tables before Store creates them)
from hotdice.store import GameResult, Store

__all__ = ["Database", "OwnedSession", "as_owner"]

_OWNER = "hotdice_owner"


class OwnedSession(Session):
    """A session whose game results, while an owner is set, are that owner's only."""


@event.listens_for(OwnedSession, "do_orm_execute")
def _only_the_owners_results(state: ORMExecuteState) -> None:
    owner = state.session.info.get(_OWNER)
    if owner is not None and state.is_select:
        state.statement = state.statement.options(
            with_loader_criteria(GameResult, GameResult.owner == owner, include_aliases=True)
        )


@event.listens_for(OwnedSession, "before_flush")
def _stamp_the_owner(session: Session, _context: Any, _instances: Any) -> None:
    owner = session.info.get(_OWNER)
    if owner is not None:
        for obj in session.new:
            if isinstance(obj, GameResult):
                obj.owner = owner


@contextmanager
def as_owner(session: Session, owner: str) -> Iterator[Session]:
    """Within the block, the session reads and writes the game results of ``owner`` only."""
    before = session.info.get(_OWNER)
    session.info[_OWNER] = owner
    try:
        yield session
    finally:
        session.info[_OWNER] = before


class Database:
    """The open store (its tables created) and a factory of owner-aware sessions."""

    def __init__(self, url: str | URL) -> None:
        self.store = Store(url)
        self._sessions = sessionmaker(self.store.engine, class_=OwnedSession, expire_on_commit=False)

    def session(self) -> Session:
        return self._sessions()

    def close(self) -> None:
        self.store.close()
