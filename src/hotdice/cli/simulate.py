"""``hotdice simulate``: computer players against each other, many games."""

from __future__ import annotations

import json
import secrets
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from hotdice.cli.common import BadInput, JsonOption, RulesOption, out, parse_rules, percent, point, translator
from hotdice.play.players import PLAYERS

__all__ = ["app"]

app = typer.Typer()


@app.command("simulate", help="Play computer players against each other; seats rotate from game to game.")
def simulate_command(
    ctx: typer.Context,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            metavar="A,B[,...]",
            help="Comma-separated player specs, e.g. greedy,random or greedy:400,greedy. "
            + "; ".join(f"{k.name}: {k.help}" for k in PLAYERS.values()),
        ),
    ],
    rules: RulesOption = "farkle",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games.")] = 1000,
    seed: Annotated[
        str | None, typer.Option("--seed", metavar="S", help="Same seed, same games, same report (default: random).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    r = parse_rules(rules)
    t = translator(ctx)
    specs = [p.strip() for p in players.split(",")]
    seed = secrets.token_hex(8) if seed is None else seed
    from rich.progress import Progress

    from hotdice.sim.simulate import SimulationError, simulate  # imported when used: start-up stays light

    try:
        if as_json or not sys.stderr.isatty():
            report = simulate(r, specs, games, seed)
        else:
            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(t("cli.simulate.playing"), total=games)
                report = simulate(r, specs, games, seed, on_game=lambda: bar.advance(task))
    except SimulationError as exc:
        raise BadInput("cli.error.plain", message=exc) from None
    if as_json:
        print(json.dumps(report.to_json()))
        return
    out.print(t("cli.simulate.line", games=games, rules=r, seed=seed))
    table = Table(*(t(f"cli.simulate.{column}") for column in ("player", "wins", "win_rate", "ci", "mean_score",
                                                               "mean_turns")), title=t("cli.simulate.title"))
    for number, p in enumerate(report.players, start=1):
        low, high = p.ci95
        table.add_row(
            f"{number}. {p.spec}",
            point(t, f"{float(p.wins):.10g}"),
            percent(t, p.win_rate),
            f"{percent(t, low)} – {percent(t, high)}",
            t.decimal(p.mean_score, 0),
            t.decimal(p.mean_turns),
        )
    out.print(table)
    by_seat = ", ".join(percent(t, float(wins / games)) for wins in report.seat_wins)
    out.print(t("cli.simulate.by_seat", rates=by_seat))
