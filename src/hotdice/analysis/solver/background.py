"""One background solver per process: every table solved in one thread, one at a time, never in a request.

A front end that needs a table not at hand asks :data:`SOLVER` for it and goes on at once with what is known
(expected points); the answer is the table's :class:`Status`, with the share solved, for the player to see.
Asking twice for one table queues one solve; the queue is bounded and says so when full. Processes share
finished tables through the cache folder (:func:`hotdice.analysis.solver.two_player_solution`).
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from hotdice.analysis.solver import (
    PROGRESS,
    TooLong,
    race_solution,
    race_solved,
    refusal,
    solved,
    two_player_solution,
)
from hotdice.game.rules import Rules

__all__ = ["QUEUE", "SOLVER", "Kind", "Solver", "Status", "Why"]

Kind = Literal["two", "race"]  # the two-player table (chance to win) or the race table (turns to go)
QUEUE = 8  # rule sets waiting at most, the running one included: each is minutes of a core at worst


# The English of a Why, by its code: the catalogue's solver.<code> words it in a front end's language.
ENGLISH: Mapping[str, str] = {
    "full": "the solver has {capacity} rule sets to work out already: ask again in a few minutes",
    "failed": "the solve failed: {error}",
}


@dataclass(frozen=True)
class Why:
    """Why a table will not come, as facts: the queue is full (``capacity``) or the solve failed (``error``, the
    exception's own text); a front end words it from the catalogue's ``solver.<code>``, ``str()`` is the English."""

    code: Literal["full", "failed"]
    values: Mapping[str, Any]

    def __str__(self) -> str:
        return ENGLISH[self.code].format(**self.values)


@dataclass(frozen=True)
class Status:
    """Where a table stands: ready, queued, solving (``progress``: share done), refused, full or failed
    (``reason``, in English; its facts in ``too_long`` or ``why``, for a front end to word)."""

    state: Literal["ready", "queued", "solving", "refused", "full", "failed"]
    progress: float = 0.0
    reason: str | None = None
    too_long: TooLong | None = None
    why: Why | None = None

    @property
    def ready(self) -> bool:
        return self.state == "ready"

    def json(self) -> dict[str, Any]:
        facts = {} if self.too_long is None else {"too_long": asdict(self.too_long)}
        if self.why is not None:
            facts["why"] = {"code": self.why.code, "values": dict(self.why.values)}
        return {"state": self.state, "progress": round(self.progress, 3), "reason": self.reason, **facts}


def _unsolved(why: Why) -> Status:
    """The status of a table that will not come, with its reason in English and as facts."""
    return Status(why.code, reason=str(why), why=why)


READY = Status("ready", 1.0)


@dataclass
class _Job:
    kind: Kind
    rules: Rules
    status: Status
    done: threading.Event


class Solver:
    """A queue of tables to solve, deduplicated per table, worked through by one daemon thread."""

    def __init__(self, capacity: int = QUEUE) -> None:
        self.capacity = capacity
        self._reset()

    def _reset(self) -> None:
        """Empty; also in a forked child, where the parent's thread and lock are not its own."""
        self._lock = threading.Lock()
        self._jobs: dict[tuple[Kind, str], _Job] = {}  # queued, running, or failed (kept to tell why)
        self._queue: deque[_Job] = deque()
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def status(self, kind: Kind, rules: Rules) -> Status | None:
        """The table's status; None when it is neither at hand nor asked for."""
        with self._lock:
            job = self._jobs.get((kind, str(rules)))
        if job is not None:
            return job.status
        return READY if _at_hand(kind, rules) else None

    def request(self, kind: Kind, rules: Rules) -> Status:
        """The table's status, a solve queued first if it is neither at hand nor asked for. Never waits."""
        if (reason := refusal(rules)) is not None:
            return Status("refused", reason=str(reason), too_long=reason)
        with self._lock:
            job = self._jobs.get((kind, str(rules)))
            if job is not None:
                return job.status
            if _at_hand(kind, rules):
                return READY
            if len(self._queue) + any(j.status.state == "solving" for j in self._jobs.values()) >= self.capacity:
                return _unsolved(Why("full", {"capacity": self.capacity}))
            job = _Job(kind, rules, Status("queued"), threading.Event())
            self._jobs[(kind, str(rules))] = job
            self._queue.append(job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="hotdice solver", daemon=True)
                self._thread.start()
            self._wake.notify()
            return job.status

    def wait(self, kind: Kind, rules: Rules, timeout: float | None = None) -> Status:
        """Ask for the table and wait for it (for a caller that chose to wait, never a request)."""
        status = self.request(kind, rules)
        with self._lock:
            job = self._jobs.get((kind, str(rules)))
        if job is not None:
            job.done.wait(timeout)
        return self.status(kind, rules) or status

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._wake.wait()
                job = self._queue.popleft()
                job.status = Status("solving")
            PROGRESS.set(self._reporter(job))
            try:
                (two_player_solution if job.kind == "two" else race_solution)(job.rules)
            except Exception as exc:
                with self._lock:
                    job.status = _unsolved(Why("failed", {"error": str(exc)}))
            else:
                with self._lock:
                    del self._jobs[(job.kind, str(job.rules))]
            job.done.set()

    def _reporter(self, job: _Job) -> Callable[[float], None]:
        def report(share: float) -> None:
            job.status = Status("solving", min(1.0, share))

        return report


def _at_hand(kind: Kind, rules: Rules) -> bool:
    return solved(rules) if kind == "two" else race_solved(rules)


SOLVER = Solver()
os.register_at_fork(after_in_child=SOLVER._reset)
