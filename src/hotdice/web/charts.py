"""Charts of the statistics page as inline SVG: no plotting library, crisp at any size, readable by screen
readers (a title and a description), and styled by the page's CSS (classes, not colours).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from hotdice.i18n import Translator

__all__ = ["Bar", "Series", "farkle_bars", "score_lines"]

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 16, 44


@dataclass(frozen=True)
class Bar:
    """Farkle rate of rolls of ``dice`` dice: the player's (None without rolls) and the exact one."""

    dice: int
    yours: float | None
    expected: float
    rolls: int


@dataclass(frozen=True)
class Series:
    """Scores of one mode, in the order the games were played: (game number, score)."""

    name: str
    css: str  # a class name, e.g. "mode-solo"
    points: tuple[tuple[int, int], ...]


def _svg(title: str, desc: str, body: list[str]) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>" + "".join(body) + "</svg>"
    )


def _grid(top: float, labels: Sequence[str]) -> list[str]:
    """Horizontal lines from 0 to ``top`` with their labels."""
    out = []
    plot = HEIGHT - TOP - BOTTOM
    for i, label in enumerate(labels):
        y = HEIGHT - BOTTOM - plot * i / (len(labels) - 1)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(f'<text class="axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    return out


def farkle_bars(bars: Sequence[Bar], *, title: str, yours: str, exact: str, dice_label: str, t: Translator) -> str:
    """Two bars per number of dice: the player's farkle rate next to the exact rate."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = max([0.5, *(b.expected for b in bars), *(b.yours or 0.0 for b in bars)])
    top = min(1.0, (int(top * 10) + 1) / 10)
    body = _grid(top, [t.percent(top * i / 4, digits=0) for i in range(5)])
    slot = plot_w / max(1, len(bars))
    bar_w = min(28.0, slot / 3)
    desc = []
    for i, b in enumerate(bars):
        x = LEFT + slot * i + slot / 2
        for offset, value, css in ((-bar_w - 1, b.yours, "yours"), (1, b.expected, "expected")):
            if value is None:
                continue
            h = plot_h * value / top
            body.append(
                f'<rect class="bar {css}" x="{x + offset:.1f}" y="{HEIGHT - BOTTOM - h:.1f}" '
                f'width="{bar_w:.1f}" height="{h:.1f}" rx="3"><title>{escape(t.percent(value))}</title></rect>'
            )
        body.append(f'<text class="axis" x="{x:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{b.dice}</text>')
        mine = "—" if b.yours is None else t.percent(b.yours)
        desc.append(f"{b.dice}: {mine} / {t.percent(b.expected)}")
    body.append(_caption(dice_label))
    body += _legend([(yours, "bar yours"), (exact, "bar expected")])
    return _svg(title, f"{yours} / {exact}: " + "; ".join(desc), body)


def _caption(text: str) -> str:
    x = LEFT + (WIDTH - LEFT - RIGHT) / 2
    return f'<text class="axis" x="{x:.1f}" y="{HEIGHT - 8}" text-anchor="middle">{escape(text)}</text>'


def _legend(items: Sequence[tuple[str, str]]) -> list[str]:
    out = []
    x = WIDTH - RIGHT - 8.0
    for label, css in reversed(items):
        width = 18 + 7.2 * len(label)
        x -= width
        out.append(f'<rect class="{css}" x="{x:.1f}" y="{TOP - 4}" width="12" height="12" rx="2"/>')
        out.append(f'<text class="axis" x="{x + 16:.1f}" y="{TOP + 6}">{escape(label)}</text>')
        x -= 12
    return out


def score_lines(series: Sequence[Series], *, title: str, game_label: str, t: Translator) -> str:
    """Each mode's scores as a line over the games played, oldest on the left."""
    points = [p for s in series for p in s.points]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max((n for n, _ in points), default=1)
    high = max((v for _, v in points), default=0)
    step = 500 if high <= 5000 else 2500
    top = max(step, -(-high // step) * step)
    body = _grid(top, [t.number(top * i // 4) for i in range(5)])

    def xy(n: int, v: int) -> tuple[float, float]:
        x = LEFT + (plot_w * (n - 1) / (last - 1) if last > 1 else plot_w / 2)
        return x, HEIGHT - BOTTOM - plot_h * v / top

    desc = []
    for s in series:
        coords = [xy(n, v) for n, v in s.points]
        if len(coords) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            body.append(f'<polyline class="line {s.css}" points="{path}"/>')
        for (x, y), (n, v) in zip(coords, s.points, strict=True):
            body.append(
                f'<circle class="dot {s.css}" cx="{x:.1f}" cy="{y:.1f}" r="3.5"><title>{n}: {v}</title></circle>'
            )
        desc.append(f"{s.name}: " + ", ".join(str(v) for _, v in s.points))
    body.append(_caption(game_label))
    body += _legend([(s.name, f"swatch {s.css}") for s in series])
    return _svg(title, "; ".join(desc), body)
