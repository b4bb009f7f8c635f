"""Durability: a server killed with SIGKILL at random moments while a game is played loses no action it
acknowledged, and the game goes on with exactly the rolls it would have had.

One device plays the daily (seeded dice) through real server processes on one database. Its first attempt is
played without kills: the reference. Further attempts (same dice, same deterministic player) are played while
another thread kills the server at random moments and starts a fresh one on the same port. The client does
what a browser does: it sends each intent with its action number and, when the connection breaks, sends the
same intent again. Every answer is checked against everything acknowledged before it, and at the end every
attempt's record, read from the database, replays with the day's seed and equals the reference move for move.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from hotdice.game.record import Record, replay
from hotdice.store.web_models import WebGame
from tests.web_servers import HOST, Preloader, free_port, server_env, wait_up
from tests.web_support import next_intent

KEY = "the durability test's daily key"
KILLS = int(os.environ.get("HOTDICE_DURABILITY_KILLS", "15"))  # more for a long run; 15 keeps the suite fast
PATIENCE = 120.0  # seconds without a server before the test gives up
UPTIME = 0.4  # a server is killed at a random moment up to this many seconds after it first answers


class Player:
    """One device playing through whichever server is up; checks each answer against what it was told before."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.acked: dict[str, dict[str, Any]] = {}  # game id -> the last view acknowledged
        self.interrupted = 0  # requests whose connection broke (the server was killed): sent again
        self.repeats = 0  # intents sent again that the server had already applied before it died
        self.answered = threading.Event()  # set at each answer

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                answer = self.client.request(method, path, json=body)
            except httpx.TransportError:
                assert time.monotonic() < deadline, f"no server for {PATIENCE} s"
                self.interrupted += 1
                time.sleep(0.05)  # as a browser would, not hammering a server that is starting
                continue
            assert answer.status_code in (200, 201), answer.text
            self.answered.set()
            data: dict[str, Any] = answer.json()
            return data

    def check(self, view: dict[str, Any]) -> None:
        """Nothing acknowledged is missing: the game is at or past it, with the same events before."""
        before = self.acked.get(view["id"])
        if before is not None:
            assert view["n"] >= before["n"], f"acknowledged action {before['n']} lost: the game is at {view['n']}"
            shared = before["events"][max(0, view["events_from"] - before["events_from"]) :]  # each carries a tail
            start = max(before["events_from"], view["events_from"]) - view["events_from"]
            assert view["events"][start : start + len(shared)] == shared
        self.acked[view["id"]] = view

    def play_attempt(self) -> str:
        started = self.call("POST", "/api/daily")
        view = self.call("GET", f"/api/games/{started['id']}")
        self.check(view)
        while view["outcome"] is None:
            acted = self.call("POST", f"/api/games/{view['id']}/act", {"n": view["n"], **next_intent(view)})
            self.repeats += not acted["applied"]
            view = acted["game"]
            self.check(view)
        return str(view["id"])


class Killer(threading.Thread):
    """Kills the server with SIGKILL at a random moment once it has answered the player, starts a fresh one on
    the port, :data:`KILLS` times: each server lives through a few of the player's requests at most."""

    def __init__(self, preloader: Preloader, port: int, pid: int, player: Player) -> None:
        super().__init__(daemon=True)
        self.preloader, self.port, self.pid, self.player = preloader, port, pid, player
        self.kills = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        rng = random.Random(20261130)
        try:
            while self.kills < KILLS:
                self.player.answered.clear()
                self.player.answered.wait()
                time.sleep(rng.uniform(0, UPTIME))
                os.kill(self.pid, signal.SIGKILL)
                self.kills += 1
                while _alive(self.pid):  # its port is free once it is gone
                    time.sleep(0.005)
                self.pid = self.preloader.spawn(self.port)
                wait_up(self.port)
        except BaseException as exc:  # seen by the test
            self.failure = exc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
def test_no_acknowledged_action_is_lost_and_the_rolls_are_the_same_after_kills(
    database_url: str, tmp_path: Path
) -> None:
    preloader = Preloader(server_env(database_url, tmp_path, HOTDICE_DAILY_KEY=KEY))
    port = free_port()
    try:
        pid = preloader.spawn(port)
        wait_up(port)
        player = Player(f"http://{HOST}:{port}")
        reference = player.play_attempt()
        assert player.interrupted == 0

        killer = Killer(preloader, port, pid, player)
        killer.start()
        attempts = []
        while killer.is_alive():
            attempts.append(player.play_attempt())
        assert killer.failure is None, killer.failure
    finally:
        preloader.close()

    assert killer.kills == KILLS
    assert player.interrupted > 0  # some kills did fall in the middle of a request
    engine = create_engine(database_url)
    with engine.connect() as connection:
        rows = {r.id: r for r in connection.execute(select(WebGame.id, WebGame.record, WebGame.official))}
    engine.dispose()
    assert set(rows) == {reference, *attempts}  # no attempt started twice by a request sent again
    assert rows[reference].official and not any(rows[a].official for a in attempts)
    expected = Record.from_json(rows[reference].record)
    assert expected.seed is not None
    for attempt in attempts:
        record = Record.from_json(rows[attempt].record)
        replay(record)  # every roll is the one the day's seed gives at its place (else RecordError)
        assert record.seed == expected.seed
        assert record.history == expected.history
        assert record.result == expected.result
    print(f"\n{killer.kills} kills over {len(attempts)} attempts, {player.interrupted} requests interrupted, "
          f"{player.repeats} intents found already applied when sent again")
