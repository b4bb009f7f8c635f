"""Idle and silent connections against a real ``hotdice serve`` on SQLite (issue 12, item 5).

Run: ``python bench/bench_idle.py [--screens 900] [--silent 200] [--seconds 10] [--src PATH]``

- The bench starts ``hotdice serve`` on a fresh SQLite file with the code of ``--src`` (a checkout's ``src``;
  by default this one's), creates a solo game, and opens ``--screens`` WebSockets on it from this process,
  which then say nothing (idle screens), and ``--silent`` TCP connections that send nothing at all.
- Over ``--seconds`` it measures the server's CPU (its process and children, from ``/proc``) and the time of
  a plain request (``GET /api/games/{id}``), one after the other: the median and the 90th percentile.
- Then it counts how many of the silent connections the server has closed (each one a file descriptor and a
  protocol object held for as long as the client likes, before).

The caps per address are turned off (all the screens come from this one address), and so are the rate limits.
To compare with main: ``git archive main src | tar -x -C /tmp/main`` then ``--src /tmp/main/src``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICKS  # utime, stime, cutime, cstime


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


async def _screen(url: str, opened: asyncio.Event, screens: list[object]) -> None:
    async with connect(url, open_timeout=120, ping_interval=None) as websocket:
        await websocket.recv()  # the state now
        screens.append(websocket)
        await opened.wait()


async def _measure(base: str, game: str, args: argparse.Namespace, pid: int) -> None:
    opened = asyncio.Event()
    screens: list[object] = []
    url = f"ws://{base.removeprefix('http://')}/ws/games/{game}"
    tasks = []
    for _ in range(args.screens):  # in groups: a burst of 900 handshakes would be a test of its own
        tasks.append(asyncio.create_task(_screen(url, opened, screens)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.2)
    while len(screens) < args.screens:
        await asyncio.sleep(0.1)
        if any(t.done() and t.exception() for t in tasks):
            raise RuntimeError(next(t.exception() for t in tasks if t.done() and t.exception()))
    silent = [socket.create_connection((HOST, int(base.rsplit(":", 1)[1]))) for _ in range(args.silent)]
    await asyncio.sleep(1.0)
    times = []
    async with httpx.AsyncClient(timeout=30) as client:
        cpu, start = _cpu_seconds(pid), time.monotonic()
        while time.monotonic() - start < args.seconds:
            sent = time.perf_counter()
            answer = await client.get(f"{base}/api/games/{game}")
            times.append(time.perf_counter() - sent)
            answer.raise_for_status()
            await asyncio.sleep(0.05)
        cpu = (_cpu_seconds(pid) - cpu) / (time.monotonic() - start)
    closed = 0
    for sock in silent:
        sock.setblocking(False)
        try:
            closed += sock.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    opened.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    ms = sorted(t * 1000 for t in times)
    print(f"{args.screens} idle screens, {args.silent} silent connections, {args.seconds:.0f} s "
          f"(src {args.src}):")
    print(f"  server CPU: {cpu * 100:.0f}% of a core")
    print(f"  GET /api/games/{{id}}: median {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9)]:.1f} ms "
          f"({len(ms)} requests)")
    print(f"  silent connections closed by the server after {args.seconds + 1:.0f} s: {closed} of {args.silent}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, default=900)
    parser.add_argument("--silent", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("HOTDICE_")}
        env |= {"PYTHONPATH": str(args.src.resolve()), "HOTDICE_DATA_DIR": data, "HOTDICE_RATE_LIMITS": "off",
                "HOTDICE_CONNECTIONS_PER_ADDRESS": "off", "HOTDICE_WEBSOCKETS_PER_ADDRESS": "off",
                "HOTDICE_CACHE_DIR": os.environ.get("HOTDICE_CACHE_DIR", str(Path(data) / "cache"))}
        server = subprocess.Popen([sys.executable, "-m", "hotdice.cli", "serve", "--port", str(port)], env=env,
                                  stderr=subprocess.DEVNULL, cwd=data)
        try:
            base = f"http://{HOST}:{port}"
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{base}/static/favicon.svg", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                time.sleep(0.1)
            made = httpx.post(f"{base}/api/games", json={"mode": "solo"}, timeout=30)
            made.raise_for_status()
            asyncio.run(_measure(base, made.json()["id"], args, server.pid))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
