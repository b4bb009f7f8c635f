"""``GET /healthz`` for load balancers and orchestrators: 200 when this process can reach its database and
the schema is at the migration head the code expects, 503 with the reason otherwise.

Its answer is kept for :data:`CHECK_EVERY` seconds: not counted by the rate limits (a balancer checks every
few seconds), a flood of checks would otherwise be a flood of queries. While one check waits on the
database, the others are answered with the last one, not queued behind it.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from hotdice.store.migrate import current, head
from hotdice.web.db import Database
from hotdice.web.deps import DatabaseDep
from hotdice.web.logs import ERRORS

router = APIRouter()
CHECK_EVERY = 1.0  # seconds an answer is kept: at most one query a second per process
_HEAD = functools.cache(head)  # read from the migration scripts on disk once, not at each check


@dataclass(frozen=True)
class Checked:
    at: float  # time.monotonic() of the check
    status: int
    body: dict[str, str | None]


class Checks:
    """The last check of one app's database, and the lock that lets only one check run at a time."""

    def __init__(self) -> None:
        self.last: Checked | None = None
        self.running = threading.Lock()


def _check(db: Database) -> Checked:
    engine = db.store.engine
    body: dict[str, str | None] = {"database": engine.dialect.name, "head": _HEAD()}
    try:
        with engine.connect() as connection:
            body["revision"] = current(connection)
    except SQLAlchemyError as exc:
        ERRORS.warning("health check: the database cannot be reached", exc_info=True)
        return Checked(time.monotonic(), 503, body | {"status": "unavailable", "reason": type(exc).__name__})
    if body["revision"] != body["head"]:
        return Checked(time.monotonic(), 503, body | {"status": "outdated", "reason": "the schema is not at the head"})
    return Checked(time.monotonic(), 200, body | {"status": "ok"})


def _stale(last: Checked | None) -> bool:
    return last is None or time.monotonic() - last.at >= CHECK_EVERY


@router.get("/healthz", include_in_schema=False)
def health(request: Request, db: DatabaseDep) -> JSONResponse:
    checks: Checks = request.app.state.health
    if _stale(checks.last) and checks.running.acquire(blocking=checks.last is None):
        try:
            if _stale(checks.last):  # not checked while this one waited
                checks.last = _check(db)
        finally:
            checks.running.release()
    last = checks.last
    assert last is not None  # the first checks wait for the lock
    return JSONResponse(last.body, status_code=last.status)
