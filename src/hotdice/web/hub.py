"""Live updates: every screen watching a game or a table gets a message when it changes, whichever server
process the change went through.

Each process fans messages out to its own screens. Services run in worker threads, so :meth:`Hub.publish` is
thread-safe: it hands the message to the event loop of each screen watching, and sends it on to the other
processes through a shared channel, chosen by :func:`hub_for`:

- Redis pub/sub when ``HOTDICE_REDIS_URL`` is set;
- else PostgreSQL ``LISTEN``/``NOTIFY`` when the database is PostgreSQL;
- else (SQLite) no channel: each process polls (:attr:`Hub.poll`) a cheap number that moves with what its
  screens watch (a game's action number), so a move made through another process on the same file shows
  within :data:`POLL_SECONDS`. One watcher task per topic polls for all the screens of that topic and sends
  them the new state, read once; it stops when the last of them leaves. (A poll per screen cost a core for
  900 idle screens: SECURITY.md, section 5.)

On PostgreSQL a change's ``NOTIFY`` goes in the change's own transaction (:meth:`Hub.commit`): PostgreSQL
delivers it at the commit, so never for a change rolled back, and it costs no transaction of its own.

A message too long for the channel (PostgreSQL's ``NOTIFY`` carries under 8000 bytes) travels as
:data:`RELOAD`: the screens of the other processes read the state from the database. So do all screens of a
process whose channel connection was lost, once it is back: they may have missed something meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from sqlalchemy import Connection, Engine, Select, bindparam, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import UpdateBase
from starlette.concurrency import run_in_threadpool

__all__ = [
    "POLL_SECONDS", "RELOAD", "Channel", "Feed", "Hub", "PostgresChannel", "RedisChannel", "hub_for", "notifying",
]

QUEUE_SIZE = 64  # a screen that falls this far behind misses messages, then reloads the state
POLL_SECONDS = 0.2
RETRY_SECONDS = 1.0  # wait before connecting again to a channel that failed
NAME = "hotdice_live"  # the PostgreSQL channel and Redis channel the processes talk on
RELOAD: dict[str, Any] = {"type": "reload"}  # "it changed elsewhere: read it again"

log = logging.getLogger(__name__)

Heard = Callable[[str], None]
Queue = asyncio.Queue[dict[str, Any]]  # one screen's messages


@dataclass(frozen=True)
class Feed:
    """What screens follow: its topic, its state now, and a cheap number that moves with that state."""

    topic: str
    state: Callable[[], dict[str, Any]]  # blocking (reads the database): run in a worker thread
    version: Callable[[], Hashable]  # blocking too
    carried: Callable[[dict[str, Any]], Hashable] | None = None  # the version a published message shows


class _Watcher:
    """The one task of a process that polls a topic's version for all its screens (SQLite)."""

    def __init__(self, feed: Feed, seen: Hashable) -> None:
        self.feed = feed
        self.seen = seen  # the version the screens were last sent
        self.stale = False  # a message without its version was sent: take the next poll's as seen
        self.task: asyncio.Task[None] | None = None

    def sent(self, message: dict[str, Any]) -> None:
        """A message published in this process reached the screens: no need to send its state again."""
        carried = self.feed.carried
        if carried is None or message == RELOAD:
            self.stale = True
        else:
            self.seen = carried(message)


class Channel(Protocol):
    """What the server processes of one database say to each other."""

    limit: int | None  # the longest text (UTF-8 bytes) it carries; None: no limit

    def send(self, text: str) -> None:
        """Send ``text`` to every process (this one too); blocking, called from a worker thread."""

    async def listen(self, heard: Heard, connected: Callable[[], None]) -> None:
        """Call ``heard`` with every text sent, ``connected`` at each (re)connection; runs until cancelled."""


class Hub:
    """Topics, each with the queues of the screens watching it here, and the channel to the other processes."""

    def __init__(self, channel: Channel | None = None, *, poll: float | None = None) -> None:
        # Each screen's queue with the event loop it waits on: only that loop may put into it.
        self._topics: defaultdict[str, dict[Queue, asyncio.AbstractEventLoop]] = defaultdict(dict)
        self._watchers: dict[str, _Watcher] = {}  # by topic, while a screen of it watches (polling only)
        self._channel = channel
        self._listener: asyncio.Task[None] | None = None
        self._origin = secrets.token_hex(8)  # tells this process's own messages apart when they come back
        self.poll = poll  # seconds between checks of what a screen watches; None: changes are pushed
        self.polls = 0  # versions read by the watchers so far (the benchmark and the tests count them)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._channel is not None and self._listener is None:
            self._listener = loop.create_task(self._channel.listen(self._heard, self._reload_all))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    @asynccontextmanager
    async def subscribe(self, topic: str, feed: Feed | None = None) -> AsyncIterator[Queue]:
        """A queue of the messages of ``topic`` from now on; with polling, ``feed`` (of ``topic``) says what to
        poll. Its first screen reads the version before it reads the state: no change falls between them."""
        if self.poll is not None and feed is not None and topic not in self._watchers:
            seen = await run_in_threadpool(feed.version)
            if topic not in self._watchers:  # none started while this one read
                watcher = self._watchers[topic] = _Watcher(feed, seen)
                watcher.task = asyncio.get_running_loop().create_task(self._watch(topic, watcher, self.poll))
        queue: Queue = asyncio.Queue(QUEUE_SIZE)
        self._topics[topic][queue] = asyncio.get_running_loop()
        try:
            yield queue
        finally:
            self._topics[topic].pop(queue, None)
            if not self._topics[topic]:
                del self._topics[topic]
                alone = self._watchers.pop(topic, None)
                if alone is not None and alone.task is not None:
                    alone.task.cancel()

    async def _watch(self, topic: str, watcher: _Watcher, every: float) -> None:
        """Every ``every`` seconds, read ``topic``'s version once; when it has moved (through another process),
        read the state once and send it to every screen of ``topic`` here."""
        feed = watcher.feed
        while True:
            await asyncio.sleep(every)
            try:
                now = await run_in_threadpool(feed.version)
                self.polls += 1
                if watcher.stale:
                    watcher.stale, watcher.seen = False, now
                elif now != watcher.seen:
                    state = await run_in_threadpool(feed.state)
                    watcher.seen = feed.carried(state) if feed.carried else now  # the state may be newer
                    self._put_all(topic, state)
            except Exception:  # the database is away for a moment, or the game is gone: the screens stay open
                log.exception("live updates of %s not polled", topic)

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every subscriber of ``topic`` in every process; call it after the commit."""
        self._deliver(topic, message)
        if self._channel is None:
            return
        try:
            self._channel.send(self._text(topic, message))
        except Exception:  # the move is committed whatever the channel does; other screens see it later
            log.exception("live update of %s not sent to the other processes", topic)

    def within(self, topic: str, message: dict[str, Any]) -> str | None:
        """The text of ``message`` for a statement that writes and notifies at once, where the channel travels
        in the writing transaction (PostgreSQL ``NOTIFY``: one round trip less); None: :meth:`commit` sends it."""
        return self._text(topic, message) if isinstance(self._channel, PostgresChannel) else None

    def commit(self, session: Session, topic: str, message: dict[str, Any], *, sent: bool = False) -> None:
        """Commit ``session`` and publish ``message`` (:meth:`publish`): in the session's own transaction
        where the channel can carry it there (PostgreSQL ``NOTIFY``: sent by the commit, or not at all).
        ``sent``: its :meth:`within` text already went with the write, in this transaction."""
        channel = self._channel if isinstance(self._channel, PostgresChannel) else None
        if channel is not None and not sent:
            channel.send_within(session.connection(), self._text(topic, message))
        session.commit()
        if channel is not None:
            self._deliver(topic, message)
        else:
            self.publish(topic, message)

    def _text(self, topic: str, message: dict[str, Any]) -> str:
        """What the channel carries: the message, or (too long for it) only the topic, to be read again."""
        text = orjson.dumps({"from": self._origin, "topic": topic, "message": message})
        limit = self._channel.limit if self._channel is not None else None
        if limit is not None and len(text) > limit:
            text = orjson.dumps({"from": self._origin, "topic": topic})
        return text.decode()

    def _heard(self, text: str) -> None:
        try:
            said = orjson.loads(text)
            origin, topic, message = said["from"], str(said["topic"]), said.get("message", RELOAD)
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a live update that is not ours: %.80r", text)
            return
        if origin != self._origin:
            self._deliver(topic, message if isinstance(message, dict) else RELOAD)

    def _reload_all(self) -> None:
        for topic in list(self._topics):
            self._deliver(topic, RELOAD)

    def _deliver(self, topic: str, message: dict[str, Any]) -> None:
        """Put ``message`` in the queues of this process's screens of ``topic``, each from its own event loop: a
        queue filled from another thread or loop would not wake the loop waiting on it. Called from any thread;
        a screen that subscribes after this reads the state itself, already committed."""
        self._put_all(topic, message)
        watcher = self._watchers.get(topic)
        if watcher is not None and watcher.task is not None:
            with contextlib.suppress(RuntimeError):
                watcher.task.get_loop().call_soon_threadsafe(watcher.sent, message)

    def _put_all(self, topic: str, message: dict[str, Any]) -> None:
        for queue, loop in list(self._topics.get(topic, {}).items()):
            with contextlib.suppress(RuntimeError):  # that screen's loop has closed: nobody is waiting
                loop.call_soon_threadsafe(_put, queue, message)


def _put(queue: Queue, message: dict[str, Any]) -> None:
    if queue.full():
        queue.get_nowait()  # drop the oldest: the newest state is what matters
    queue.put_nowait(message)


def notifying(write: UpdateBase) -> Select[Any]:
    """``write`` (an UPDATE ... RETURNING) with the ``NOTIFY`` of its ``notice`` parameter in one statement, one
    row per row written: PostgreSQL sends it at the commit, and not at all when nothing was written. The text
    is :meth:`Hub.within`'s."""
    return select(func.pg_notify(NAME, bindparam("notice"))).select_from(write.cte("written"))


class PostgresChannel:
    """``NOTIFY`` through the app's own connections; ``LISTEN`` on one psycopg connection of its own."""

    limit: int | None = 7900  # PostgreSQL refuses a payload of 8000 bytes or more
    _NOTIFY = select(func.pg_notify(NAME, bindparam("text")))

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def send(self, text: str) -> None:
        with self._engine.begin() as connection:
            self.send_within(connection, text)

    def send_within(self, connection: Connection, text: str) -> None:
        """``NOTIFY`` in ``connection``'s transaction: delivered when it commits, never if it rolls back."""
        connection.execute(self._NOTIFY, {"text": text})

    async def listen(self, heard: Heard, connected: Callable[[], None]) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._dsn, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {NAME}")
                    connected()
                    async for notice in connection.notifies():
                        heard(notice.payload)
            except psycopg.Error as exc:
                log.warning("live updates from other processes interrupted: %s", exc)
            await asyncio.sleep(RETRY_SECONDS)


class RedisChannel:
    """Redis pub/sub on one channel."""

    limit: int | None = None

    def __init__(self, url: str) -> None:
        import redis

        self._url = url
        self._client = redis.Redis.from_url(url)

    def send(self, text: str) -> None:
        self._client.publish(NAME, text)

    async def listen(self, heard: Heard, connected: Callable[[], None]) -> None:
        import redis.asyncio
        from redis.exceptions import RedisError

        while True:
            client = redis.asyncio.Redis.from_url(self._url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(NAME)
                    connected()
                    async for said in pubsub.listen():
                        if said["type"] == "message":
                            heard(said["data"].decode())
            except (RedisError, OSError) as exc:
                log.warning("live updates from other processes interrupted: %s", exc)
            finally:
                await client.aclose()
            await asyncio.sleep(RETRY_SECONDS)


def hub_for(engine: Engine, redis_url: str | None) -> Hub:
    """The hub for a server on ``engine``: see the module's docstring."""
    if redis_url:
        return Hub(RedisChannel(redis_url))
    if engine.dialect.name == "postgresql":
        return Hub(PostgresChannel(engine))
    return Hub(poll=POLL_SECONDS)
