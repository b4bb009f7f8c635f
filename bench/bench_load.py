"""Load: many browsers playing games at once against a real ``hotdice serve`` on loopback (issue 7).

Run: ``python bench/bench_load.py [--duration 300] [--players 250] [--rate 500] [--workers 1]
[--postgres | --database-url URL | --url http://host:port] [--versus 0.5] [--level medium]``

- The bench starts the server itself (``hotdice serve --workers N`` when the command has that option, else
  N ``uvicorn --factory hotdice.web.app:serve_app`` processes on N ports, the players spread over them) on
  a fresh SQLite file, a database given by ``--database-url``, or (``--postgres``) a PostgreSQL database it
  creates and drops. ``--url``: play against a server already running (its CPU is then not measured).
- Each virtual player is a browser of its own (its own device cookie and connection) and plays games back
  to back through the JSON API as the page does: ``POST /api/games``, ``GET /api/games/{id}``, then its
  intents ``{n, keep, then}`` to ``/act`` and, against the computer, each of the computer's steps to
  ``/computer``. A share ``--versus`` of its games are against the computer, the rest solo (ten turns).
- Pacing: every player sends one action each ``players / rate`` seconds (phases spread at random), so the
  offered load is ``--rate`` actions/s while the server keeps up; ``--rate 0``: each sends its next action
  as soon as the last is answered (the most the server can do with that many players).
- An action is one ``/act`` or ``/computer`` request; creating and opening a game are counted apart.
  Latency: from sending the request to reading the whole answer. The first ``--warmup`` seconds are not
  counted; the players arrive over its first half. Errors are counted by HTTP status (or the transport's
  failure); a player drops a game that answered an error and starts another.
- What limits it: the CPU of the server processes (with their children) and of this generator over the
  measured window, from ``/proc``, against the machine's whole CPU: both share the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

ACTION_KINDS = ("act", "computer")
TICKS = os.sysconf("SC_CLK_TCK")
RATE_LIMITS_ENV = "HOTDICE_RATE_LIMITS"  # the server's switch for its rate limits: off for a load test


# -- the players --------------------------------------------------------------------------------------------


def intent(view: dict[str, Any], bank_at: int) -> dict[str, Any]:
    """What a plain player clicks, from what the page shows: the first option, banking from ``bank_at`` on."""
    if view["phase"] == "set-aside":
        best = view["options"][0]
        if best["wins"]:
            return {"keep": best["set_aside"]}
        total = view["turn_total"] + best["points"]
        then = "bank" if best["bank_refusal"] is None and best["records"] and total >= bank_at else "roll"
        return {"keep": best["set_aside"], "then": then}
    return {"then": "bank" if view["can_bank"] and view["turn_total"] >= bank_at else "roll"}


@dataclass
class Tally:
    """What was measured of the requests sent between ``counting_from`` and ``stop_at``: latencies per kind,
    statuses, actions answered per second."""

    counting_from: float
    stop_at: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    per_second: Counter[int] = field(default_factory=Counter)  # actions answered without error, by second
    games_finished: int = 0

    def add(self, kind: str, started: float, seconds: float, status: str) -> None:
        if not self.counting_from <= started < self.stop_at:
            return
        self.statuses[status] += 1
        if status in ("200", "201"):
            self.latencies.setdefault(kind, []).append(seconds)
            if kind in ACTION_KINDS:
                self.per_second[int(started - self.counting_from)] += 1


class Dropped(Exception):
    """The server answered an error: the player leaves this game."""


class Browser:
    """A browser's connection, kept alive, and its cookies: plain HTTP/1.1 on asyncio streams, so that the
    generator spends little of the CPU it shares with the server (httpx costs several times more a request)."""

    def __init__(self, url: str, timeout: float) -> None:
        parsed = urlsplit(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, bytes]:
        """The status and body of the answer; raises OSError (or a timeout) when the connection fails."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: application/json",
                f"Content-Length: {len(payload)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            return await asyncio.wait_for(self._exchange(("\r\n".join(head) + "\r\n\r\n").encode() + payload),
                                          self.timeout)
        except BaseException:
            await self.close()  # the connection's state is unknown: the next request opens a new one
            raise

    async def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        writer.write(request)
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status, length, keep = int(lines[0].split()[1]), 0, True
        for line in lines[1:]:
            name, _, value = line.partition(":")
            match name.strip().lower():
                case "content-length":
                    length = int(value)
                case "set-cookie":
                    cookie, _, _ = value.strip().partition(";")
                    key, _, val = cookie.partition("=")
                    self.cookies[key] = val
                case "connection":
                    keep = value.strip().lower() != "close"
                case "transfer-encoding":
                    raise OSError(f"unexpected Transfer-Encoding: {value.strip()}")
        content = await reader.readexactly(length)
        if not keep:
            await self.close()
        return status, content

    async def close(self) -> None:
        if self.streams is not None:
            writer = self.streams[1]
            self.streams = None
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


@dataclass
class Player:
    """One browser: its own cookies and connection, playing games back to back until the end."""

    browser: Browser
    tally: Tally
    rng: random.Random
    period: float  # seconds between two actions; 0: no pacing
    next_at: float = 0.0

    async def call(self, kind: str, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            status, content = await self.browser.request(method, path, body)
        except TimeoutError:
            self.tally.add(kind, started, time.perf_counter() - started, "timeout")
            raise Dropped from None
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.tally.add(kind, started, time.perf_counter() - started, type(exc).__name__)
            raise Dropped from None
        self.tally.add(kind, started, time.perf_counter() - started, str(status))
        if status >= 400:
            raise Dropped
        found: dict[str, Any] = json.loads(content)
        return found

    async def pace(self) -> None:
        """Wait for this player's next slot; a player behind its schedule does not burst to catch up."""
        if self.period <= 0:
            return
        now = time.perf_counter()
        self.next_at = max(self.next_at + self.period, now - self.period)
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)

    async def play(self, stop_at: float, ramp: float, versus: float, level: str, rules: str) -> None:
        await asyncio.sleep(self.rng.uniform(0, ramp))  # players arrive over the ramp, not all at once
        if self.period > 0:
            self.next_at = time.perf_counter() + self.rng.uniform(0, self.period) - self.period
        while time.perf_counter() < stop_at:
            body: dict[str, Any] = {"mode": "solo", "rules": rules}
            if self.rng.random() < versus:
                body = {"mode": "versus", "level": level, "rules": rules}
            bank_at = self.rng.choice((300, 350, 400, 500, 600, 800))
            try:
                made = await self.call("create", "POST", "/api/games", body)
                view = await self.call("view", "GET", f"/api/games/{made['id']}")
                while view["outcome"] is None and time.perf_counter() < stop_at:
                    await self.pace()
                    path = f"/api/games/{view['id']}"
                    if view["seats"][view["to_act"]]["computer"]:
                        answer = await self.call("computer", "POST", f"{path}/computer", {"n": view["n"]})
                    else:
                        body = {"n": view["n"], **intent(view, bank_at)}
                        answer = await self.call("act", "POST", f"{path}/act", body)
                    view = answer["game"]
                if view["outcome"] is not None and time.perf_counter() >= self.tally.counting_from:
                    self.tally.games_finished += 1
            except Dropped:
                await asyncio.sleep(0.2)


# -- the servers ----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def hotdice_command() -> list[str]:
    found = shutil.which("hotdice", path=str(Path(sys.executable).parent)) or shutil.which("hotdice")
    if found is None:
        raise SystemExit("bench_load: the hotdice command is not installed (pip install -e .)")
    return [found]


def serve_has_workers() -> bool:
    shown = subprocess.run([*hotdice_command(), "serve", "--help"], capture_output=True, text=True, check=False)
    return "--workers" in shown.stdout


@dataclass
class Servers:
    """The server processes started here, and the addresses the players are spread over."""

    processes: list[subprocess.Popen[bytes]]
    urls: list[str]
    how: str

    def stop(self) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def start_servers(workers: int, env: dict[str, str], launch: str, log: Path) -> Servers:
    """``hotdice serve --workers N`` (one address), or N separate uvicorn processes (N addresses)."""
    out = log.open("ab")
    if launch == "auto":
        launch = "serve" if workers == 1 or serve_has_workers() else "uvicorn"
    if launch == "serve":
        port = free_port()
        command = [*hotdice_command(), "serve", "--port", str(port)]
        if workers > 1:
            command += ["--workers", str(workers)]
        procs = [subprocess.Popen(command, env=env, stdout=out, stderr=out)]
        servers = Servers(procs, [f"http://127.0.0.1:{port}"], " ".join(["hotdice", *command[1:]]))
    else:
        ports = [free_port() for _ in range(workers)]
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", "hotdice.web.app:serve_app", "--port", str(port),
                 "--log-level", "warning", "--no-access-log"],
                env=env, stdout=out, stderr=out,
            )
            for port in ports
        ]
        servers = Servers(procs, [f"http://127.0.0.1:{port}" for port in ports],
                          f"{workers} × uvicorn --factory hotdice.web.app:serve_app")
    try:
        for url in servers.urls:
            wait_ready(url, servers.processes, log)
    except BaseException:
        servers.stop()
        raise
    return servers


def wait_ready(url: str, processes: list[subprocess.Popen[bytes]], log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in processes):
            raise SystemExit(f"bench_load: a server process stopped at start:\n{log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/api/openapi.json", timeout=5).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"bench_load: the server at {url} did not answer within {timeout:.0f} s")


@contextlib.contextmanager
def fresh_postgres(server_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on ``server_url`` for this run, dropped afterwards."""
    from sqlalchemy import create_engine, make_url, text

    name = f"hotdice_load_{os.getpid()}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# -- what the CPU did ---------------------------------------------------------------------------------------


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it (uvicorn's and serve's worker processes)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each process still alive."""
    seconds = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds[pid] = (int(fields[11]) + int(fields[12])) / TICKS
    return seconds


def machine_busy() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine since boot (all cores)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


@dataclass
class CpuWindow:
    """CPU used by the servers, by this generator and by the whole machine between ``start`` and ``end``."""

    roots: list[int]
    wall: tuple[float, float] = (0.0, 0.0)
    server_start: dict[int, float] = field(default_factory=dict)
    server_end: dict[int, float] = field(default_factory=dict)
    own: tuple[float, float] = (0.0, 0.0)
    machine: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))

    def pids(self) -> list[int]:
        return [pid for root in self.roots for pid in process_tree(root)]

    def start(self) -> None:
        self.wall = (time.perf_counter(), 0.0)
        self.server_start = cpu_seconds(self.pids())
        times = os.times()
        self.own = (times.user + times.system, 0.0)
        self.machine = (machine_busy(), (0.0, 0.0))

    def end(self) -> None:
        self.wall = (self.wall[0], time.perf_counter())
        self.server_end = cpu_seconds(self.pids())
        times = os.times()
        self.own = (self.own[0], times.user + times.system)
        self.machine = (self.machine[0], machine_busy())

    def seconds(self) -> float:
        return self.wall[1] - self.wall[0]

    def server(self) -> float:
        """Cores the servers kept busy."""
        used = sum(self.server_end[pid] - self.server_start.get(pid, 0.0) for pid in self.server_end)
        return used / self.seconds()

    def generator(self) -> float:
        return (self.own[1] - self.own[0]) / self.seconds()

    def whole(self) -> tuple[float, float]:
        """Cores busy on the machine, and cores it has."""
        (busy0, total0), (busy1, total1) = self.machine
        return (busy1 - busy0) / self.seconds(), (total1 - total0) / self.seconds()


# -- the run and its report ---------------------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of sorted values."""
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


async def progress(tally: Tally, stop_at: float, every: float = 10.0) -> None:
    """A line on stderr every ``every`` seconds: actions/s of the last window and the p99 so far."""
    while time.perf_counter() + every <= stop_at:
        await asyncio.sleep(every)
        second = int(time.perf_counter() - tally.counting_from)
        if second <= 0:
            continue
        recent = sum(tally.per_second[s] for s in range(max(0, second - int(every)), second))
        done = sorted(x for k in ACTION_KINDS for x in tally.latencies.get(k, []))
        p99 = f"{percentile(done, 99) * 1000:.0f} ms" if done else "-"
        print(f"  {second:4d} s: {recent / every:6.1f} actions/s, p99 so far {p99}", file=sys.stderr)


async def run_players(args: argparse.Namespace, urls: list[str], cpu: CpuWindow) -> Tally:
    browsers = [Browser(urls[i % len(urls)], args.timeout) for i in range(args.players)]
    counting_from = time.perf_counter() + args.warmup
    tally = Tally(counting_from, counting_from + args.duration)
    period = args.players / args.rate if args.rate > 0 else 0.0
    players = [Player(b, tally, random.Random(f"{args.seed}/{i}"), period) for i, b in enumerate(browsers)]
    loop = asyncio.get_running_loop()
    loop.call_at(loop.time() + args.warmup, cpu.start)
    loop.call_at(loop.time() + args.warmup + args.duration, cpu.end)
    reporter = asyncio.create_task(progress(tally, tally.stop_at))
    try:
        await asyncio.gather(*(p.play(tally.stop_at, args.warmup / 2, args.versus, args.level, args.rules)
                               for p in players))
    finally:
        reporter.cancel()
        for b in browsers:
            await b.close()
    return tally


def report(args: argparse.Namespace, tally: Tally, cpu: CpuWindow | None, how: str) -> None:
    actions = sorted(x for k in ACTION_KINDS for x in tally.latencies.get(k, []))
    seconds = max(1, int(args.duration))
    series = [tally.per_second[s] for s in range(seconds)]
    window = min(10, seconds)
    lowest = min(sum(series[s : s + window]) / window for s in range(seconds - window + 1))
    errors = {k: v for k, v in tally.statuses.items() if k not in ("200", "201")}
    db = "PostgreSQL" if args.postgres or (args.database_url or "").startswith("postgres") else "SQLite"
    print(f"# hotdice load · {time.strftime('%Y-%m-%d %H:%M')} · {os.cpu_count()} cores · Python "
          f"{platform.python_version()} · load average before {args.load_before:.2f}")
    print(f"server: {how} · {db} · players {args.players} · target "
          f"{args.rate or 'as fast as answered'} actions/s · versus share {args.versus} ({args.level}) · "
          f"rules {args.rules} · {args.duration:.0f} s measured after {args.warmup:.0f} s warm-up")
    print(f"actions: {len(actions)} sent in the window = {len(actions) / args.duration:.1f} actions/s held "
          f"(lowest {window} s window {lowest:.1f}/s); games finished {tally.games_finished}")
    if actions:
        print("action latency: " + ", ".join(
            f"{name} {percentile(actions, q) * 1000:.1f} ms" for name, q in
            (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))))
    for kind in ("act", "computer", "create", "view"):
        done = sorted(tally.latencies.get(kind, []))
        if done:
            print(f"  {kind:8s} {len(done):7d} answered, p50 {percentile(done, 50) * 1000:6.1f} ms, "
                  f"p99 {percentile(done, 99) * 1000:6.1f} ms, max {done[-1] * 1000:7.1f} ms")
    print(f"errors: {sum(errors.values())}" + (f" ({', '.join(f'{k}: {v}' for k, v in sorted(errors.items()))})"
                                                if errors else ""))
    if cpu is not None and cpu.seconds() > 0:
        busy, cores = cpu.whole()
        others = max(0.0, busy - cpu.server() - cpu.generator())
        print(f"CPU, cores busy out of {cores:.1f}: servers {cpu.server():.2f}, this generator "
              f"{cpu.generator():.2f}, everything else on the machine {others:.2f} (whole machine {busy:.2f})")
        if actions:
            per = cpu.seconds() / len(actions) * 1000
            print(f"CPU per action (creating and opening games included): servers {cpu.server() * per:.2f} ms, "
                  f"generator {cpu.generator() * per:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=300, help="seconds measured (default 300)")
    parser.add_argument("--warmup", type=float, default=10,
                        help="seconds played before measuring; players arrive over its first half (default 10)")
    parser.add_argument("--players", type=int, default=250, help="virtual players, each its own device")
    parser.add_argument("--rate", type=float, default=500, help="target actions/s over all players; 0: no pacing")
    parser.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--launch", choices=("auto", "serve", "uvicorn"), default="auto",
                        help="auto: hotdice serve (--workers N when it has it), else N uvicorn processes")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="play against this running server instead of starting one")
    where.add_argument("--database-url", help="the server's HOTDICE_DATABASE_URL (default: a fresh SQLite file)")
    where.add_argument("--postgres", nargs="?", const="postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
                       help="a fresh PostgreSQL database made (and dropped) on this server for the run")
    parser.add_argument("--versus", type=float, default=0.5, help="share of games against the computer")
    parser.add_argument("--level", default="medium", help="the computer's level (easy, medium, hard)")
    parser.add_argument("--rules", default="farkle", help="the house rules of every game")
    parser.add_argument("--timeout", type=float, default=30, help="seconds before a request counts as failed")
    parser.add_argument("--seed", default="load", help="seeds the players' choices of game and style")
    args = parser.parse_args()
    if args.players < 1 or args.workers < 1 or args.duration <= 0 or args.rate < 0 or not 0 <= args.versus <= 1:
        parser.error("players and workers at least 1, duration above 0, rate at least 0, versus in [0, 1]")
    args.load_before = os.getloadavg()[0]

    with contextlib.ExitStack() as stack:
        if args.url is not None:
            urls, cpu, how = [args.url.rstrip("/")], CpuWindow([]), args.url
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hotdice-load-")))
            env = {**os.environ, "HOTDICE_DATA_DIR": str(folder), RATE_LIMITS_ENV: "off"}
            env.pop("HOTDICE_DATABASE_URL", None)
            if args.postgres:
                env["HOTDICE_DATABASE_URL"] = stack.enter_context(fresh_postgres(args.postgres))
            elif args.database_url:
                env["HOTDICE_DATABASE_URL"] = args.database_url
            servers = start_servers(args.workers, env, args.launch, folder / "server.log")
            stack.callback(servers.stop)
            urls, cpu, how = servers.urls, CpuWindow([p.pid for p in servers.processes]), servers.how
        print(f"bench_load: {args.players} players on {', '.join(urls)} for {args.warmup:.0f} + "
              f"{args.duration:.0f} s", file=sys.stderr)
        tally = asyncio.run(run_players(args, urls, cpu))
        report(args, tally, cpu if args.url is None else None, how)


if __name__ == "__main__":
    main()
