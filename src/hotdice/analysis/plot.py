"""Charts of the best play, as PNG files: where to bank and where to roll, and who is winning.

Drawn with matplotlib's object interface on the Agg canvas, so no display and no global pyplot state.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from hotdice.game.rules import Rules

__all__ = ["bank_chart", "file_name", "win_chart"]


def file_name(kind: str, rules: Rules) -> str:
    """``hotdice-<kind>-<rules>.png``, the rules string made safe for a file name."""
    return f"hotdice-{kind}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', str(rules))}.png"


def bank_chart(rules: Rules, path: Path, top: int | None = None) -> Path:
    """Bank-or-roll regions by turn total (across) and dice in hand (up), for the most points per turn,
    once entered: from :mod:`hotdice.analysis.expectation`. Where the rules forbid a bank (min_bank), it says so."""
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    from hotdice.analysis.expectation import STEP, may_bank, turn_values

    tv = turn_values(rules)
    if top is None:
        # Far enough to show where banking starts with fewer dice than a full hand (full hands roll on).
        last = max((tv.bank_from(n) - STEP for n in range(1, rules.dice) if tv.bank_from(n) > STEP), default=STEP)
        top = min(max(last * 5 // 4, 1000), tv.cap)
    totals = np.arange(STEP, top + STEP, STEP)
    region = np.zeros((rules.dice, totals.size))
    for n in range(1, rules.dice + 1):
        for k, t in enumerate(totals.tolist()):
            if not may_bank(rules, t, entered=True):
                region[n - 1, k] = 2
            elif not tv.should_roll(t, n, entered=True):
                region[n - 1, k] = 1
    colours = ["#4c9be8", "#f2a541", "#c8c8c8"]
    fig = Figure(figsize=(10, 3.6), dpi=120)
    ax = fig.add_subplot()
    ax.imshow(region, cmap=ListedColormap(colours), vmin=0, vmax=2, aspect="auto", origin="lower",
              interpolation="nearest", extent=(STEP / 2, top + STEP / 2, 0.5, rules.dice + 0.5))
    ax.set_yticks(range(1, rules.dice + 1))
    ax.set_xlabel("turn total (points set aside this turn)")
    ax.set_ylabel("dice in hand")
    ax.set_title(f"Bank or roll for the most points per turn — {rules}")
    labels = ("roll", "bank", "bank not allowed")
    ax.legend(handles=[Patch(color=colours[k], label=labels[k]) for k in range(3) if np.any(region == k)],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    return path


def win_chart(rules: Rules, path: Path) -> Path:
    """The chance that the player about to roll wins, over both banked scores (both players entered),
    from the solved two-player table (:mod:`hotdice.analysis.solver`)."""
    from matplotlib.figure import Figure

    from hotdice.analysis.solver import UNIT, two_player_solution

    sol = two_player_solution(rules)
    first = 1 if rules.entry else 0  # seat 0 is "not entered yet" when there is an entry
    w = np.asarray(sol.w)[first:, first:]
    edge = rules.target - UNIT
    fig = Figure(figsize=(7.2, 6), dpi=120)
    ax = fig.add_subplot()
    image = ax.imshow(w, origin="lower", cmap="RdBu", vmin=0.0, vmax=1.0, interpolation="nearest",
                      extent=(-UNIT / 2, edge + UNIT / 2, -UNIT / 2, edge + UNIT / 2))
    scores = np.arange(0, rules.target, UNIT)
    lines = ax.contour(scores, scores, w, levels=[0.25, 0.5, 0.75], colors="k", linewidths=0.8)
    ax.clabel(lines, fmt=lambda v: f"{100 * v:.0f} %", fontsize=8)
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("your score (you are about to roll)")
    ax.set_title(f"Chance to win with best play — {rules}")
    fig.colorbar(image, ax=ax, label="chance to win")
    fig.tight_layout()
    fig.savefig(path)
    return path
