"""The web service's database: the statistics store plus the web tables, and sessions that know whose
statistics they read and write.

Many people share one database here, while :mod:`hotdice.store.stats` reads and records the games of "the
player". An :class:`OwnedSession` set to an owner (:func:`as_owner`) shows :func:`hotdice.store.stats.statistics`
and :func:`hotdice.store.stats.record_game` only that owner's results, and stamps the results it adds with the
owner: SQLAlchemy's documented way to add global criteria (``with_loader_criteria`` in ``do_orm_execute``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import URL, event, update
from sqlalchemy.orm import DeclarativeBase, ORMExecuteState, Session, sessionmaker, with_loader_criteria
from sqlalchemy.pool import Pool, QueuePool

from hotdice.store import GameResult, Store

__all__ = ["Database", "OwnedSession", "as_owner", "hold"]

_OWNER = "hotdice_owner"
MANY_CONNECTIONS = 1000


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


def hold(session: Session, model: type[DeclarativeBase], key: str) -> None:
    """Hold the row of ``model`` whose primary key is ``key`` until the transaction ends, by writing it
    unchanged: PostgreSQL locks the row, SQLite takes its write lock. Requests that hold the same row run one
    after the other from here, and each reads what the one before it committed: a check-then-insert (a
    second daily attempt, a seat, a table's game) cannot be done twice at once, in one process or several."""
    (column,) = model.__table__.primary_key.columns  # type: ignore[attr-defined]
    session.execute(
        update(model).where(column == key).values({column.key: column}).execution_options(synchronize_session=False)
    )


def _connections(pool: Pool) -> int:
    """How many requests may hold a connection at once: the pool's size (its overflow connections are opened
    and closed at each use); pools that never make a request wait (SQLite in memory, NullPool) count as many."""
    return pool.size() if isinstance(pool, QueuePool) else MANY_CONNECTIONS


class Database:
    """The open store (migrated to the newest schema) and a factory of owner-aware sessions."""

    def __init__(self, url: str | URL) -> None:
        self.store = Store(url)
        self._sessions = sessionmaker(self.store.engine, class_=OwnedSession, expire_on_commit=False)
        # Requests wait here, on the event loop, for a connection of the pool (hotdice.web.deps): a request
        # waiting in a worker thread would hold that thread while the requests holding the connections wait
        # for a thread to go on, until the pool's timeout (30 s) breaks the deadlock.
        self.admission = asyncio.Semaphore(_connections(self.store.engine.pool))

    def session(self) -> Session:
        return self._sessions()

    def close(self) -> None:
        self.store.close()
