"""Statistics and records, from :func:`hotdice.store.stats.statistics` (training never counts there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from hotdice.play.modes import shown_rules
from hotdice.store.your_games import HISTORY
from hotdice.tui.screens.base import HotDiceScreen

if TYPE_CHECKING:
    from collections.abc import Sequence

    from hotdice.store.stats import Stats
    from hotdice.store.your_games import FinishedGame
    from hotdice.tui.i18n import Translator

__all__ = ["StatsScreen", "history_view", "stats_view"]


def _table(t: Translator, title: str, *columns: str) -> Table:
    return Table(*(t(c) for c in columns), title=t(title), title_justify="left", box=None, pad_edge=False)


def stats_view(t: Translator, stats: Stats) -> RenderableType:
    """Every figure of ``stats`` as tables, in the player's language."""
    if stats.games == 0:
        return Text(t("stats.none"))
    parts: list[RenderableType] = [Text(t("stats.games", n=stats.games), style="bold")]
    modes = _table(t, "stats.by_mode", "stats.col.mode", "stats.col.played", "stats.col.won")
    for name, tally in stats.by_mode.items():
        title = t(f"modename.{name}") if t.has(f"modename.{name}") else name
        modes.add_row(title, str(tally.played), "—" if tally.won is None else str(tally.won))
    parts += [Text(""), modes]
    if stats.by_opponent:
        rivals = _table(t, "stats.by_opponent", "stats.col.opponent", "stats.col.played", "stats.col.won")
        for name, tally in stats.by_opponent.items():
            shown_name = t(f"level.{name}") if t.has(f"level.{name}") else name
            rivals.add_row(shown_name, str(tally.played), "—" if tally.won is None else str(tally.won))
        parts += [Text(""), rivals]

    def shown(value: int | None) -> str:
        return "—" if value is None else t.number(value)

    records = Table("", "", title=t("stats.records"), title_justify="left", box=None, pad_edge=False,
                    show_header=False)
    records.add_row(t("stats.best_turn"), shown(stats.best_turn))
    records.add_row(t("stats.best_ten"), shown(stats.best_ten_turns))
    records.add_row(t("stats.fewest_turns"), shown(stats.fewest_turns))
    records.add_row(t("stats.longest_streak"), str(stats.longest_win_streak))
    records.add_row(t("stats.current_streak"), str(stats.current_win_streak))
    records.add_row(t("stats.farkle_free"), str(stats.longest_farkle_free_run))
    records.add_row(t("stats.hot_dice"), str(stats.hot_dice))
    parts += [Text(""), records]
    if stats.farkle_rates:
        luck = _table(t, "stats.farkles", "stats.col.rules", "stats.col.dice", "stats.col.rolls",
                      "stats.col.farkles", "stats.col.rate", "stats.col.expected")
        for f in stats.farkle_rates:
            luck.add_row(shown_rules(f.rules), str(f.dice), str(f.rolls), str(f.farkles), t.percent(f.rate),
                         t.percent(float(f.expected)))
        parts += [Text(""), luck]
    if stats.dailies:
        daily = _table(t, "stats.dailies", "stats.col.day", "stats.col.score", "stats.col.official")
        for d in stats.dailies:
            daily.add_row(t.date(d.day), t.number(d.score), t("stats.yes" if d.official else "stats.no"))
        days = t.plural("daily.streak_days", stats.daily_streak)
        parts += [Text(""), daily, Text(t("daily.streak", days=days, best=stats.best_daily_streak))]
    return Group(*parts)


def history_view(t: Translator, games: Sequence[FinishedGame]) -> RenderableType:
    """The last finished games, newest first, numbered by the key that opens each one's review."""
    table = _table(t, "stats.history", "stats.col.key", "stats.col.day", "stats.col.mode", "stats.col.score")
    for n, game in enumerate(games, start=1):
        mode = t(f"modename.{game.mode}") if t.has(f"modename.{game.mode}") else game.mode
        table.add_row(str(n), t.date(game.day), mode, t.number(game.score))
    return table


class StatsScreen(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("q", "back", show=False),
        *(Binding(str(n), f"review({n - 1})", show=False) for n in range(1, HISTORY + 1)),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[FinishedGame] = []

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        yield Static(Text(t("stats.title"), style="bold"), id="stats-title")
        with VerticalScroll(id="stats-scroll"):
            yield Static(self._view(), id="stats-body")
            if self.games:
                yield Static(history_view(t, self.games), id="stats-history")
        yield Static(t("stats.keys_history" if self.games else "stats.keys"), id="keys")

    def on_mount(self) -> None:
        self.query_one("#stats-scroll", VerticalScroll).focus()

    def _view(self) -> RenderableType:
        from sqlalchemy.exc import SQLAlchemyError

        from hotdice.store import Store
        from hotdice.store.stats import statistics
        from hotdice.store.your_games import finished_games

        t = self.hotdice.t
        try:
            with Store() as store:
                self.games = finished_games(store)
                return stats_view(t, statistics(store, owner=""))
        except (OSError, SQLAlchemyError) as exc:
            return Text(t("stats.error", error=exc))

    def action_review(self, index: int) -> None:
        """The review of the listed game ``index``."""
        if index < len(self.games):
            self.hotdice.review(self.games[index].record)

    def action_back(self) -> None:
        self.app.pop_screen()
