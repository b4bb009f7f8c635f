"""A game review (:class:`hotdice.analysis.game_review.GameReview`) as text in cells, in the reader's language: the
graph as a chart of block characters that fits 80×24 (a table of the value after each turn below
:data:`CHART_MIN_WIDTH` columns), the decisions worth a look, and each player's summary. For the CLI's
``hotdice review`` and the terminal's Review screen, which show the same object; nothing here computes a value.
"""

from __future__ import annotations

from collections.abc import Sequence

from hotdice.analysis.game_review import GameReview, ReviewStep
from hotdice.game.engine import Decision
from hotdice.i18n import Translator
from hotdice.play.modes import shown_rules

__all__ = [
    "CHART_MIN_WIDTH", "MARKS", "change_words", "chart", "decision_words", "loss_words", "review_lines", "value_words",
]

CHART_MIN_WIDTH = 50  # below it the graph is a table
CHART_ROWS = 8  # eight rows of eighth blocks: 64 levels
_BLOCKS = " ▁▂▃▄▅▆▇█"
MARKS = {"inaccuracy": "·", "mistake": "?", "blunder": "×"}  # under the chart, the worst decision of a column
_WORSE = ("good", "best", "inaccuracy", "mistake", "blunder")


def value_words(t: Translator, measure: str, value: float) -> str:
    """A value of the review in the measure's unit: 53.2 %, 5 935 points, 17.67 turns."""
    if measure == "win":
        return t("cli.percent", value=t.decimal(100 * value))
    if measure == "turns":
        return t("review.turns", n=t.decimal(value, 2))
    return t("review.points", n=t.decimal(value, 0))


def loss_words(t: Translator, measure: str, loss: float) -> str:
    """What a decision lost, as ``hotdice advise`` says what a choice costs."""
    if measure == "win":
        return t("cli.advise.cost_win", cost=t.decimal(100 * loss, 2))
    if measure == "turns":
        return t("cli.advise.cost_turns", cost=t.decimal(loss, 3))
    return t("cli.advise.cost_points", cost=t.decimal(loss, 1))


def change_words(t: Translator, measure: str, change: float) -> str:
    """A signed change of the value (luck in the summary): +53.25 %, -120.0 points, -2.77 turns."""
    digits = {"win": 2, "points": 1, "turns": 3}[measure]
    shown = 100 * change if measure == "win" else change
    sign = "+" if round(shown, digits) >= 0 else "-"
    return t(f"review.change_{measure}", change=sign + t.decimal(abs(shown), digits))


def decision_words(t: Translator, text: str) -> str:
    """A decision in the engine's notation (``set aside 155, then roll``) in the reader's words."""
    decision = Decision.parse(text)
    if decision.set_aside is None:
        return t(f"hint.then_{decision.then}")
    return t(f"hint.keep_then_{decision.then}", keep=decision.set_aside)


def _series(review: GameReview, seat: int) -> list[float]:
    return [review.start[seat], *(step.values[seat] for step in review.steps)]


def chart(review: GameReview, seat: int, width: int, t: Translator) -> list[str]:
    """The value for ``seat`` from the start to the last step, as :data:`CHART_ROWS` rows of block characters
    with its scale on the left, a row of marks under it (its decisions' labels), and the turns below."""
    values = _series(review, seat)
    if review.measure == "win":
        low, high = 0.0, 1.0
    else:
        low, high = min(values), max(values)
        if high - low < 1e-9:
            low, high = low - 1, high + 1
    labels = [value_words(t, review.measure, high), value_words(t, review.measure, (high + low) / 2),
              value_words(t, review.measure, low)]
    margin = max(len(label) for label in labels) + 1
    room = max(width - margin - 1, 10)
    n = len(values)
    cols = room if n >= room else n * max(room // n, 1)
    at = [min(n - 1, c * n // cols) for c in range(cols)]
    levels = [round((values[k] - low) / (high - low) * CHART_ROWS * 8) for k in at]
    if review.measure == "turns":  # fewer turns is better: the chart still rises when the game goes well
        levels = [CHART_ROWS * 8 - level for level in levels]
    rows = []
    for r in range(CHART_ROWS, 0, -1):
        cells = "".join(_BLOCKS[min(max(level - (r - 1) * 8, 0), 8)] for level in levels)
        scale = labels[0] if r == CHART_ROWS else labels[1] if r == CHART_ROWS // 2 else labels[2] if r == 1 else ""
        if review.measure == "turns":
            scale = labels[2] if r == CHART_ROWS else labels[0] if r == 1 else scale
        rows.append(f"{scale:>{margin - 1}} │{cells}")
    marks = [" "] * cols
    for c in range(cols):
        first = at[c - 1] + 1 if c and at[c - 1] != at[c] else at[c]
        worst = None
        for k in range(first, at[c] + 1):
            step = review.steps[k - 1] if k else None
            if step is not None and step.seat == seat and step.label in MARKS and (
                    worst is None or _WORSE.index(step.label) > _WORSE.index(worst)):
                worst = step.label
        marks[c] = MARKS[worst] if worst else " "
    rows.append(" " * margin + "└" + "".join(marks))
    last = review.steps[-1].turn if review.steps else 1
    axis = t("review.axis", first=1, last=last)
    rows.append(" " * (margin + 1) + axis)
    return rows


def turn_table(review: GameReview, seat: int, t: Translator) -> list[str]:
    """The chart's alternative on a narrow screen: the value for ``seat`` at the end of each turn."""
    ends: dict[int, float] = {}
    for step in review.steps:
        ends[step.turn] = step.values[seat]
    head = f"{t('review.turn'):>6}  {t('review.value')}"
    return [head, *(f"{turn:>6}  {value_words(t, review.measure, v)}" for turn, v in ends.items())]


def review_lines(t: Translator, review: GameReview, *, player: int | None = None, width: int = 80) -> list[str]:
    """The whole review as lines of at most ``width`` cells (the decisions table may wrap on a narrow screen):
    title, graph of ``player`` (seat 0 if None), the labelled decisions (``player``'s, or everyone's), the summary."""
    seat = 0 if player is None else player
    names = [p.name for p in review.players]
    lines = [t("review.title", players=t("review.versus").join(names), rules=shown_rules(review.rules))]
    lines.append(t(f"review.measure.{review.measure}", name=names[seat]))
    if review.approximate:
        lines.append(t("review.approximate"))
    if not review.finished:
        lines.append(t("review.unfinished"))
    lines.append("")
    lines += chart(review, seat, width, t) if width >= CHART_MIN_WIDTH else turn_table(review, seat, t)
    lines.append(t("review.marks", inaccuracy=MARKS["inaccuracy"], mistake=MARKS["mistake"], blunder=MARKS["blunder"]))
    lines.append("")
    lines += _decisions(t, review, player)
    lines.append("")
    lines += _summary(t, review, width)
    return lines


def _decisions(t: Translator, review: GameReview, player: int | None) -> list[str]:
    marked = [s for s in review.steps if s.kind == "decision" and s.label in MARKS
              and (player is None or s.seat == player)]
    if not marked:
        return [t("review.clean")]
    out = [t("review.decisions")]
    for step in marked:
        out.append(_decision_line(t, review, step))
    return out


def _decision_line(t: Translator, review: GameReview, step: ReviewStep) -> str:
    assert step.played is not None and step.best is not None and step.loss is not None and step.label is not None
    where = t("review.where", turn=step.turn, name=review.players[step.seat].name, position=_position(t, step))
    return t("review.decision", mark=MARKS[step.label], label=t(f"review.label.{step.label}"), where=where,
             played=decision_words(t, step.played), best=decision_words(t, step.best),
             loss=loss_words(t, review.measure, step.loss))


def _position(t: Translator, step: ReviewStep) -> str:
    """The scores, the turn total and the roll on the table, from the step's position (Game.position)."""
    fields = step.position.split()
    scores = "-".join(s.split("~")[0].split("x")[0] for s in fields[0].split(","))
    total = fields[2].split("/")[0]
    roll = fields[3]
    if roll in ("-", "?"):
        return t("review.at", scores=scores, total=total)
    return t("review.at_roll", scores=scores, total=total, dice=" ".join(roll))


def _summary(t: Translator, review: GameReview, width: int) -> list[str]:
    """Each player's summary as a table; where its one table would be wider than ``width`` (long units such as
    points), two tables: the values, then the accuracy and the labels' counts."""
    heads = [t("review.player"), t("review.start"), t("review.end"), t("review.luck"), t("review.skill"),
             t("review.accuracy"), MARKS["inaccuracy"], MARKS["mistake"], MARKS["blunder"]]
    rows: list[Sequence[str]] = [heads]
    for p in review.players:
        luck = change_words(t, review.measure, -p.luck if review.measure == "turns" else p.luck)
        accuracy = "—" if p.accuracy is None else t.decimal(p.accuracy, 1)
        rows.append([p.name, value_words(t, review.measure, p.start), value_words(t, review.measure, p.end), luck,
                     loss_words(t, review.measure, p.skill_lost), accuracy, str(p.labels["inaccuracy"]),
                     str(p.labels["mistake"]), str(p.labels["blunder"])])
    whole = _table(rows)
    if max(len(line) for line in whole) <= width:
        return [t("review.summary"), *whole]
    return [t("review.summary"), *_table([row[:5] for row in rows]), "", *_table([[row[0], *row[5:]] for row in rows])]


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows in columns: the first (names, cut at 16 cells) to the left, the others to the right."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    widths[0] = min(widths[0], 16)
    return ["  ".join(cell[:w].ljust(w) if k == 0 else cell.rjust(w)
                      for k, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]
