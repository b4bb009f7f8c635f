"""Independent reference implementations for the tests: written from RULES.md, sharing no code with src/.

They are slow and plain on purpose: a brute-force partition search over the dice of a set-aside.
"""

from __future__ import annotations

import itertools
from collections import Counter

from hotdice.game.rules import Kinds, Rules


def group_points(group: tuple[int, ...], r: Rules) -> int:
    """Points of one group of dice scored as a single combination, 0 if it is none."""
    n = len(group)
    counts = Counter(group)
    faces = sorted(group)
    if n == 1:
        return {1: r.single_1, 5: r.single_5}.get(group[0], 0)
    if len(counts) == 1 and n >= 3:
        face = group[0]
        triple = r.three_1s if face == 1 else face * 100
        if n == 3:
            return triple
        if r.kinds is Kinds.FIXED:
            return [r.four_kind, r.five_kind, r.six_kind][n - 4]
        if r.kinds is Kinds.DOUBLING:
            return triple * 2 ** (n - 3)
        if r.kinds is Kinds.ADDITIVE:
            return triple * (n - 2)
        return 0
    if n == 6 and faces == [1, 2, 3, 4, 5, 6]:
        return r.straight
    if n == 5 and faces == [1, 2, 3, 4, 5]:
        return r.low_straight
    if n == 5 and faces == [2, 3, 4, 5, 6]:
        return r.high_straight
    if n == 6 and sorted(counts.values()) == [2, 2, 2]:
        return r.three_pairs
    if n == 6 and sorted(counts.values()) == [3, 3]:
        return r.two_triplets
    if n == 6 and sorted(counts.values()) == [2, 4]:
        return r.four_kind_pair
    return 0


def best_partition(dice: tuple[int, ...], r: Rules) -> int:
    """Most points of these dice split into combinations using every die; -1 if impossible."""
    if not dice:
        return 0
    first, rest = dice[0], dice[1:]
    best = -1
    for size in range(len(rest) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            group = (first, *(rest[i] for i in others))
            pts = group_points(group, r)
            if pts <= 0:
                continue
            remaining = tuple(d for i, d in enumerate(rest) if i not in others)
            sub = best_partition(remaining, r)
            if sub >= 0:
                best = max(best, pts + sub)
    return best


def legal_set_asides(roll: tuple[int, ...], r: Rules) -> dict[tuple[int, ...], int]:
    """Every distinct scoring sub-multiset of the roll that the rules allow, with its points."""
    found: dict[tuple[int, ...], int] = {}
    counts = Counter(roll)
    for size in range(1, len(roll) + 1):
        for idx in itertools.combinations(range(len(roll)), size):
            set_aside = tuple(sorted(roll[i] for i in idx))
            if set_aside in found:
                continue
            chosen = Counter(set_aside)
            if r.validate and any(chosen[f] < 3 * (c // 3) for f, c in counts.items()):
                continue  # every triple of the roll must be set aside
            pts = best_partition(set_aside, r)
            if pts > 0:
                found[set_aside] = pts
    return found
