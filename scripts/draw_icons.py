"""Draws the web app's home-screen icons (static/icon-192.png, icon-512.png, icon-maskable.png) with matplotlib,
the favicon's die in PNG: a phone's home screen wants bitmaps. Run it again after changing the drawing; the PNGs
are committed."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyBboxPatch

STATIC = Path(__file__).resolve().parents[1] / "src" / "hotdice" / "web" / "static"
GREEN, IVORY, INK, RED = "#1d5c45", "#fffaf0", "#22201c", "#b3261e"


def draw(path: Path, size: int, *, maskable: bool) -> None:
    """The die on green: on a rounded tile, or (maskable) on a full square with the die inside the safe circle
    of radius 40 % that every launcher's mask keeps."""
    figure = plt.figure(figsize=(1, 1), dpi=size)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, 32)
    axes.set_ylim(0, 32)
    axes.axis("off")
    figure.patch.set_alpha(0)
    if maskable:
        axes.add_patch(FancyBboxPatch((0, 0), 32, 32, boxstyle="square,pad=0", color=GREEN))
        scale, offset = 0.85, 16 * (1 - 0.85)  # the die 17/32 wide: its corners within the circle
    else:
        axes.add_patch(FancyBboxPatch((2 + 7, 2 + 7), 28 - 14, 28 - 14, boxstyle="round,pad=7", color=GREEN))
        scale, offset = 1.0, 0.0

    def at(v: float) -> float:
        return offset + scale * v

    inner = 20 * scale
    rounding = 5 * scale
    axes.add_patch(
        FancyBboxPatch(
            (at(6) + rounding, at(6) + rounding),
            inner - 2 * rounding,
            inner - 2 * rounding,
            boxstyle=f"round,pad={rounding}",
            color=IVORY,
        )
    )
    for x, y, colour in ((11.5, 20.5, INK), (16, 16, RED), (20.5, 11.5, INK)):
        axes.add_patch(Circle((at(x), at(y)), 2.3 * scale, color=colour))
    figure.savefig(path, dpi=size, transparent=not maskable)
    plt.close(figure)


def main() -> None:
    draw(STATIC / "icon-192.png", 192, maskable=False)
    draw(STATIC / "icon-512.png", 512, maskable=False)
    draw(STATIC / "icon-maskable.png", 512, maskable=True)


if __name__ == "__main__":
    main()
