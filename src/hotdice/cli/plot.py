"""``hotdice plot``: PNG charts of the best play."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from hotdice.cli.common import BadInput, RulesOption, parse_rules, solving

__all__ = ["app"]

app = typer.Typer()


@app.command("plot", help="Write PNG charts: bank-or-roll regions by turn total and dice in hand (solo, most "
             "points), and the two-player chance to win over both scores (solved table).")
def plot_command(
    rules: RulesOption = "farkle",
    chart: Annotated[str, typer.Option("--chart", "-c", metavar="bank|win|all", help="Which chart.")] = "all",
    output: Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="Folder for the PNG files.")] = Path(),
) -> None:
    from hotdice.analysis.plot import bank_chart, file_name, win_chart

    r = parse_rules(rules)
    if chart not in ("bank", "win", "all"):
        raise BadInput("cli.error.chart", chart=chart)
    if not output.is_dir():
        raise BadInput("cli.error.output", output=output)
    written = []
    try:
        if chart in ("bank", "all"):
            written.append(bank_chart(r, output / file_name("bank", r)))
        if chart in ("win", "all"):
            with solving(f"Solving {r} for two players (once; cached after)", False):
                written.append(win_chart(r, output / file_name("win", r)))
    except OSError as exc:
        raise BadInput("cli.error.write", output=output, reason=exc) from None
    for path in written:
        print(path)
