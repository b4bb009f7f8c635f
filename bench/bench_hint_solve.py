"""Hints on an unsolved table: 40 at once, and what the rest of the server answers meanwhile (issue 12, item 2).

Run: ``python bench/bench_hint_solve.py [--hints 40] [--rules farkle] [--src DIR ...]``

For each ``--src`` (a checkout's ``src`` folder: ``git archive main src | tar -x -C /tmp/main`` gives main's;
default: this checkout's), a real server (``uvicorn --factory hotdice.web.app:serve_app``, as bench_load.py
starts it) on a fresh data folder and a fresh cache of solved tables, so the table is unsolved. One browser
starts a race game under ``--rules``, rolls, then sends ``--hints`` hint requests at once, each on a
connection of its own, while another browser asks ``GET /api/daily`` once a second. Printed: each hint's
answer time and measure, the daily's answer times while the hints were out, and when the hints' measure
became the exact one (the race table solved). The numba kernels are compiled, and a solo hint (no table)
answered, before the clock starts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from bench_load import start_servers

HERE = Path(__file__).resolve().parent.parent / "src"


def _compile(env: dict[str, str]) -> None:
    """Compile (or load) the kernels this source uses, on a table of its own, before anything is timed."""
    code = ("from hotdice.game.rules import Rules; from hotdice.analysis.solver import race_solution; "
            "race_solution(Rules.parse('farkle,target=500'))")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


async def _daily(client: httpx.AsyncClient, url: str, stop: asyncio.Event, times: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        (await client.get(f"{url}/api/daily")).raise_for_status()
        times.append(time.perf_counter() - started)
        await asyncio.sleep(1.0)


async def _hint(url: str, cookies: httpx.Cookies, game_id: str) -> tuple[float, str]:
    async with httpx.AsyncClient(cookies=cookies, timeout=600) as client:
        started = time.perf_counter()
        answer = await client.get(f"{url}/api/games/{game_id}/hint")
        answer.raise_for_status()
        return time.perf_counter() - started, str(answer.json()["measure"])


async def _rolled(player: httpx.AsyncClient, url: str, mode: str, rules: str) -> dict[str, Any]:
    made = (await player.post(f"{url}/api/games", json={"mode": mode, "rules": rules})).json()
    view = (await player.get(f"{url}/api/games/{made['id']}")).json()
    answer = await player.post(f"{url}/api/games/{view['id']}/act", json={"n": view["n"], "then": "roll"})
    return dict(answer.json()["game"])


async def _run(url: str, hints: int, rules: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=600) as player, httpx.AsyncClient(timeout=600) as other:
        # A solo hint first (expected points, no table): the coach's import and the rules' expected points
        # are then not part of the figures, on either source.
        solo = await _rolled(player, url, "solo", rules)
        await _hint(url, player.cookies, solo["id"])
        view = await _rolled(player, url, "race", rules)
        stop, daily_times = asyncio.Event(), []
        daily = asyncio.create_task(_daily(other, url, stop, daily_times))
        started = time.perf_counter()
        answers = await asyncio.gather(*(_hint(url, player.cookies, view["id"]) for _ in range(hints)))
        all_answered = time.perf_counter() - started
        exact = None
        while exact is None:
            _, measure = await _hint(url, player.cookies, view["id"])
            if measure != "points":
                exact = time.perf_counter() - started
            else:
                await asyncio.sleep(0.5)
        stop.set()
        await daily
    return {"hints": sorted(a[0] for a in answers), "measures": sorted({a[1] for a in answers}),
            "all_answered": all_answered, "exact_after": exact, "daily": daily_times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hints", type=int, default=40)
    parser.add_argument("--rules", default="farkle")
    parser.add_argument("--src", action="append", type=Path, help="a checkout's src folder (repeatable)")
    args = parser.parse_args()
    for src in args.src or [HERE]:
        with tempfile.TemporaryDirectory(prefix="hotdice-bench-") as root:
            env = {**os.environ, "PYTHONPATH": str(src.resolve()), "HOTDICE_DATA_DIR": f"{root}/data",
                   "HOTDICE_CACHE_DIR": f"{root}/cache", "HOTDICE_RATE_LIMITS": "off"}
            _compile(env)
            servers = start_servers(1, env, "uvicorn", Path(root) / "server.log")
            try:
                got = asyncio.run(_run(servers.urls[0], args.hints, args.rules))
            finally:
                servers.stop()
        hints, daily = got["hints"], got["daily"]
        print(f"{src}: {args.hints} hints at once on an unsolved race table ({args.rules})")
        print(f"  hint answer: median {statistics.median(hints):.3f} s, max {hints[-1]:.3f} s; "
              f"measures {', '.join(got['measures'])}; all answered after {got['all_answered']:.1f} s")
        print(f"  GET /api/daily meanwhile ({len(daily)}×): median {statistics.median(daily):.3f} s, "
              f"max {max(daily):.3f} s")
        print(f"  exact measure (race table solved) after {got['exact_after']:.1f} s")


if __name__ == "__main__":
    main()
