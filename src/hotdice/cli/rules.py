"""``hotdice rules``: the rules and scoring table in force, or the presets."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from hotdice.cli.common import KNOB_HELP, RULES_HELP, JsonOption, out, parse_rules, translator
from hotdice.game.rules import KNOBS
from hotdice.game.scoring import ScoringLine, scoring_table
from hotdice.game.variants import VARIANTS

if TYPE_CHECKING:
    from hotdice.i18n import Translator

__all__ = ["app"]

app = typer.Typer()


@app.command(
    "rules",
    help="Print the rules and scoring table in force, or the presets with --list.\n\nKnobs:\n\n" + KNOB_HELP,
)
def rules_command(
    ctx: typer.Context,
    rules: Annotated[str, typer.Argument(help=RULES_HELP, metavar="RULES")] = "farkle",
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets.")] = False,
    as_json: JsonOption = False,
) -> None:
    if list_presets:
        if as_json:
            print(
                json.dumps(
                    [
                        {"name": v.name, "title": v.title, "source": v.source, "rules": v.rules.to_json()}
                        for v in VARIANTS
                    ]
                )
            )
            return
        t = translator(ctx)
        table = Table(t("cli.rules.preset"), t("cli.rules.game"), t("cli.rules.source"), title=t("cli.rules.presets"))
        for v in VARIANTS:
            table.add_row(v.name, v.title, v.source)
        out.print(table)
        return
    r = parse_rules(rules)
    acting = r.acting_knobs()  # a knob that cannot act under these rules is not shown
    if as_json:
        idle = {k.name for k in KNOBS} - {k.name for k in acting}
        print(
            json.dumps(
                {**{name: value for name, value in r.to_json().items() if name not in idle},
                 "scoring": [{"combination": c.name, "points": c.points} for c in scoring_table(r)]}
            )
        )
        return
    t = translator(ctx)
    out.print(t("cli.rules.line", rules=r))
    knobs = Table(t("cli.rules.knob"), t("cli.rules.value"), t("cli.rules.meaning"), title=t("cli.rules.in_force"))
    for k in acting:
        knobs.add_row(k.name, k.write(getattr(r, k.name)), t(f"cli.knob.{k.name}"))
    out.print(knobs)
    table = Table(t("cli.rules.combination"), t("cli.rules.points"), title=t("cli.rules.scoring"))
    for line in scoring_table(r):
        table.add_row(_combination(t, line), str(line.points))
    out.print(table)


def _combination(t: Translator, line: ScoringLine) -> str:
    """A combination's name: the library's English, or the catalogue's words for its kind in another language."""
    if t.lang == "en":
        return line.name
    from hotdice.i18n.scoring import combination_name

    return combination_name(t, line)
