"""The web view of a table before and after its typed view (issue 14, item 1): time and bytes, side by side.

Run: ``python bench/bench_view.py [--before REV] [--games N]``

"Before" is the package of ``REV`` (default ``main``), taken with ``git archive`` into a temporary folder;
"after" is this checkout. Each runs in its own process over the same positions: seeded random games under
farkle and 5000-fr-6 (one, two and four players), every decision of each. For each position: the service's
view (``games.view``), its JSON answer (orjson, as the routes write it) and the live update it sends
(``routes.games._live``, written as the hub writes it). Figures: mean microseconds per position (best of 5
passes over all of them, best of 3 runs of each side, alternated), and the answer's bytes (mean, largest).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def positions(games: int) -> list[Any]:
    """Every decision of ``games`` seeded random games, as (game, players) copies."""
    from hotdice.game.dice import SeededDice
    from hotdice.game.engine import Game
    from hotdice.game.rules import Rules

    found = []
    for number in range(games):
        rng = random.Random(number)
        rules = Rules.parse(("farkle", "5000-fr-6")[number % 2])
        players = (1, 2, 4)[number % 3]
        game = Game(rules, tuple(f"P{k}" for k in range(players)))
        dice = SeededDice(f"bench-view/{number}")
        while game.outcome is None and len(game.history) < 400:
            if isinstance(game.to_act, int):
                found.append(game.clone())
                game.play(rng.choice(game.legal_decisions()), dice)
            else:
                game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
    return found


def measure(games: int) -> dict[str, float]:
    """Run in the side's own process: the figures of its ``games.view`` over the positions."""
    import orjson

    from hotdice.store.web_models import WebGame
    from hotdice.web.routes.games import _live
    from hotdice.web.services import games as service

    loaded = []
    for game in positions(games):
        row = WebGame(id="b" * 16, mode="solo", owner_id="owner", record="", action=len(game.history))
        loaded.append(service.Loaded(row, game, None, [{"kind": "human", "player": None}] * len(game.players)))

    def best(work: Any) -> float:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            for one in loaded:
                work(one)
            times.append((time.perf_counter() - start) / len(loaded))
        return min(times) * 1e6

    sizes = [len(orjson.dumps(service.view(one, "owner"))) for one in loaded]
    return {
        "positions": len(loaded),
        "view_us": best(lambda one: service.view(one, "owner")),
        "answer_us": best(lambda one: orjson.dumps(service.view(one, "owner"))),
        "with_live_us": best(lambda one: (v := service.view(one, "owner"), orjson.dumps(v), orjson.dumps(_live(v)))),
        "bytes_mean": sum(sizes) / len(sizes),
        "bytes_max": max(sizes),
    }


def side(src: Path, games: int) -> dict[str, float]:
    """The figures of the package in ``src``, measured in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--measure", str(games)], env=env, check=True,
                         capture_output=True, text=True, cwd=src.parent).stdout
    figures: dict[str, float] = json.loads(out.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="the git revision measured as 'before'")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure)))
        return
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", args.before, "src"], cwd=ROOT, check=True, capture_output=True)
        with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
        # Alternated, three times each, the best of each figure kept: a busy machine slows one run, not all.
        runs = [(side(Path(folder) / "src", args.games), side(ROOT / "src", args.games)) for _ in range(3)]
    before, after = ({key: min(run[k][key] for run in runs) for key in runs[0][k]} for k in (0, 1))
    print(f"# bench_view: {platform.python_version()} on {platform.machine()}, {args.games} games, "
          f"{after['positions']:.0f} positions; before = {args.before}, after = this checkout")
    print(f"{'':34}{'before':>10}{'after':>10}{'after/before':>14}")
    rows = [("view built (us)", "view_us"), ("view + JSON answer (us)", "answer_us"),
            ("view + answer + live update (us)", "with_live_us"), ("answer bytes, mean", "bytes_mean"),
            ("answer bytes, largest", "bytes_max")]
    for label, key in rows:
        print(f"{label:34}{before[key]:>10.0f}{after[key]:>10.0f}{after[key] / before[key]:>14.2f}")


if __name__ == "__main__":
    main()
