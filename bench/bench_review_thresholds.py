"""The review's labels from data: the losses of Easy and Medium's decisions in each measure, what the review costs
against a plain replay, and each level's accuracy.

Run: ``python bench/bench_review_thresholds.py [--games 1000] [--rules farkle]``.

Per measure, the games are: ``win`` Easy against Medium (seats alternate; each seat's decisions counted for its
level) and Hard against Medium; ``points`` the ten-turn solo of each level; ``turns`` the solo race of each level.
Seeds are ``games`` indices, so a run is reproducible. It prints, per measure and level, how many decisions,
the share that lost anything, and the percentiles of the losses of those that did; then the thresholds the
rule below gives, each level's mean accuracy per game under them, and the seconds of review against replay.

The rule (the same for every measure): of the decisions of Easy and Medium that lost anything, pooled,
``inaccuracy`` is the median loss, ``mistake`` the 80th percentile and ``blunder`` the 95th, each rounded to
two significant figures: an inaccuracy is a slip worse than half of these players' slips, a mistake one of
their worst fifth, a blunder one of their worst twentieth.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from hotdice.analysis.game_review import THRESHOLDS, game_review
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.record import record_of, replay
from hotdice.game.rules import Rules
from hotdice.play.modes import ten_turn_rules
from hotdice.play.players import make_player, play_game

PERCENTILES = (50, 75, 80, 90, 95, 99)


def setups(rules: Rules, games: int) -> list[tuple[str, str, tuple[str, ...], Rules, int | None, int]]:
    """(measure, tag, players, rules, turn limit, games)."""
    ten = ten_turn_rules(rules)
    return [
        ("win", "easy-medium", ("easy", "medium"), rules, None, games),
        ("win", "hard-medium", ("hard", "medium"), rules, None, max(games // 5, 1)),
        ("points", "easy", ("easy",), ten, 10, games),
        ("points", "medium", ("medium",), ten, 10, games),
        ("points", "hard", ("hard",), ten, 10, max(games // 5, 1)),
        ("turns", "easy", ("easy",), rules, None, games),
        ("turns", "medium", ("medium",), rules, None, games),
        ("turns", "hard", ("hard",), rules, None, max(games // 5, 1)),
    ]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def two_figures(x: float) -> float:
    if x <= 0:
        return 0.0
    return round(x, 1 - math.floor(math.log10(x)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rules", default="farkle")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    losses: dict[tuple[str, str], list[float]] = {}
    accuracy: dict[tuple[str, str], list[float]] = {}
    decisions: dict[tuple[str, str], int] = {}
    reviewed: dict[tuple[str, str], list[tuple[float, float]]] = {}  # (replay s, review s) per record
    worst_identity = 0.0  # the largest |(end - start) - (luck - skill_lost)| (turns: start - end) over every player
    for measure, tag, specs, game_rules, limit, games in setups(rules, args.games):
        for k in range(games):
            seated = specs if k % 2 == 0 else tuple(reversed(specs))
            rng = random.Random(k)
            game = Game(game_rules, seated, turn_limit=limit)
            play_game(game, [make_player(s, rng) for s in seated], SeededDice(f"review/{tag}/{k}".encode()))
            record = record_of(game)
            t0 = time.process_time()
            replay(record)
            t1 = time.process_time()
            review = game_review(record)
            t2 = time.process_time()
            assert review.measure == measure, (review.measure, measure)
            reviewed.setdefault((measure, tag), []).append((t1 - t0, t2 - t1))
            sign = -1 if measure == "turns" else 1
            for player in review.players:
                gap = sign * (player.end - player.start) - (player.luck - player.skill_lost)
                worst_identity = max(worst_identity, abs(gap))
                key = (measure, seated[player.seat])
                decisions[key] = decisions.get(key, 0) + player.decisions
                if player.accuracy is not None:
                    accuracy.setdefault(key, []).append(player.accuracy)
            for step in review.steps:
                if step.kind == "decision" and step.loss is not None and step.loss > 1e-9:
                    losses.setdefault((measure, seated[step.seat]), []).append(step.loss)
    total = sum(len(times) for times in reviewed.values())
    print(f"rules {rules}, {args.games} games per level (Hard: a fifth); end - start = luck - skill_lost on all "
          f"{total} games, to {worst_identity:.1e} at worst")
    for measure in ("win", "points", "turns"):
        print(f"\n== {measure}")
        print(f"{'level':8} {'decisions':>9} {'lost':>6} " + " ".join(f"{'p' + str(p):>9}" for p in PERCENTILES)
              + f" {'accuracy':>9}")
        for level in ("easy", "medium", "hard"):
            key = (measure, level)
            if key not in decisions:
                continue
            lost = losses.get(key, [])
            cells = " ".join(f"{quantile(lost, p):9.4g}" if lost else f"{'-':>9}" for p in PERCENTILES)
            share = len(lost) / decisions[key] if decisions[key] else 0
            acc = statistics.fmean(accuracy.get(key, [100.0]))
            print(f"{level:8} {decisions[key]:9d} {share:6.1%} {cells} {acc:9.1f}")
        pooled = losses.get((measure, "easy"), []) + losses.get((measure, "medium"), [])
        chosen = [two_figures(quantile(pooled, q)) for q in (50, 80, 95)]
        print(f"rule (pooled p50 / p80 / p95, two figures): inaccuracy {chosen[0]}, mistake {chosen[1]}, "
              f"blunder {chosen[2]}; in the module: {THRESHOLDS[measure].to_json()}")
        for (m, tag), times in reviewed.items():
            if m == measure:
                rep = statistics.fmean(t for t, _ in times)
                rev = statistics.fmean(t for _, t in times)
                worst = max(t for _, t in times)
                print(f"  {tag:12} replay {rep * 1000:7.1f} ms, review {rev * 1000:7.1f} ms "
                      f"(worst {worst * 1000:.0f} ms) per game, CPU")


if __name__ == "__main__":
    main()
