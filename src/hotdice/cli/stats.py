"""``hotdice stats``: statistics and records of the games played."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from hotdice.cli.common import BadInput, JsonOption, out, percent, translator

__all__ = ["app"]

app = typer.Typer()


@app.command("stats", help="Statistics and records of the games played (training never counts).")
def stats_command(ctx: typer.Context, as_json: JsonOption = False) -> None:
    # Imported here: SQLAlchemy is slow to import and only this command needs it.
    from sqlalchemy.exc import SQLAlchemyError

    from hotdice.play.modes import shown_rules
    from hotdice.store import Store, data_dir
    from hotdice.store.stats import statistics

    try:
        with Store() as store:
            stats = statistics(store, owner="")
    except (OSError, SQLAlchemyError) as exc:
        raise BadInput("cli.error.stats", folder=data_dir(), reason=str(exc)) from None
    if as_json:
        print(json.dumps(stats.to_json()))
        return
    t = translator(ctx)
    if stats.games == 0:
        out.print(t("cli.stats.empty"))
        return
    for key, tallies in (("mode", stats.by_mode), ("opponent", stats.by_opponent)):
        if tallies:
            table = Table(t(f"cli.stats.{key}"), t("cli.stats.played"), t("cli.stats.won"),
                          title=t(f"cli.stats.by_{key}"))
            for name, tally in tallies.items():
                table.add_row(name, str(tally.played), "—" if tally.won is None else str(tally.won))
            out.print(table)

    def shown(value: int | None) -> str:
        return "—" if value is None else str(value)

    records = Table(t("cli.stats.record"), t("cli.stats.value"), title=t("cli.stats.records"))
    for key, value in (("best_turn", stats.best_turn), ("best_ten_turns", stats.best_ten_turns),
                       ("fewest_turns", stats.fewest_turns), ("longest_streak", stats.longest_win_streak),
                       ("current_streak", stats.current_win_streak), ("farkle_free", stats.longest_farkle_free_run),
                       ("hot_dice", stats.hot_dice)):
        records.add_row(t(f"cli.stats.{key}"), shown(value))
    out.print(records)
    if stats.farkle_rates:
        luck = Table(*(t(f"cli.stats.{column}") for column in ("rules", "dice_rolled", "rolls", "farkles",
                                                               "your_rate", "expected")),
                     title=t("cli.stats.farkles_by_dice"))
        for f in stats.farkle_rates:
            rate, expected = percent(t, f.rate), percent(t, float(f.expected))
            luck.add_row(shown_rules(f.rules), str(f.dice), str(f.rolls), str(f.farkles), rate, expected)
        out.print(luck)
    if stats.dailies:
        daily = Table(t("cli.stats.day"), t("cli.stats.score"), t("cli.stats.official"), title=t("cli.stats.daily"))
        for d in stats.dailies:
            daily.add_row(t.date(d.day), str(d.score), t("cli.stats.yes") if d.official else t("cli.stats.no"))
        out.print(daily)
        days = t.plural("cli.stats.daily_streak_days", stats.daily_streak)
        out.print(t("cli.stats.daily_streaks", days=days, best=stats.best_daily_streak))
