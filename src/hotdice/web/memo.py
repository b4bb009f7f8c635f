"""What one server process remembers between requests, to spare the database and the engine work.

Nothing here is ever the truth: the database is. A process keeps only what cannot go stale (a player's id
never changes) or what it checks against the database before using it (a rebuilt game is used only for
the very record it was rebuilt from), so any number of processes may serve one database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["Recent"]

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The ``size`` most recently used values by key; safe to share between the worker threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def pop(self, key: K) -> V | None:
        """The value, no longer kept: for a value its user changes in place."""
        with self._lock:
            return self._values.pop(key, None)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
