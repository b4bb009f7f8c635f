"""``hotdice score`` and ``hotdice odds``: one roll scored, and the exact odds of one roll by number of dice."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from hotdice.analysis.odds import odds as exact_odds
from hotdice.cli.common import BadInput, JsonOption, RulesOption, out, parse_rules, percent, translator
from hotdice.game.engine import offered
from hotdice.game.rules import Rules, SetAsideRule
from hotdice.game.scoring import DiceError, parse_dice, scorer
from hotdice.game.told import farkle_code

__all__ = ["app"]

app = typer.Typer()


def _score_json(dice: tuple[int, ...], r: Rules) -> dict[str, Any]:
    """What the game allows from this roll (:func:`offered`): under set_aside=all, the one set-aside of every
    scoring die; ``set_aside`` says which rule gave the list."""
    options = offered(r, dice)
    best = options[0] if options else None
    return {
        "dice": list(dice),
        "rules": str(r),
        "set_aside": r.set_aside.value,
        "farkle": best is None,
        "wins_game": scorer(r).wins_game(dice),
        "best": None if best is None else {"keep": list(best.set_aside), "points": best.points},
        "options": [{"keep": list(o.set_aside), "points": o.points, "dice_left": o.dice_left} for o in options],
    }


@app.command("score", help="Score one roll: every set-aside the rules allow, best first (under set_aside=all, the "
                            "one that sets aside every scoring die). Use - to read rolls from stdin.")
def score_command(
    ctx: typer.Context,
    dice: Annotated[list[str], typer.Argument(help="The dice rolled: 1 1 1 1 5 5, 111155, or - for stdin.")],
    rules: RulesOption = "farkle",
    as_json: JsonOption = False,
) -> None:
    r = parse_rules(rules)
    if dice == ["-"]:
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                roll = parse_dice(line, r.dice)
            except DiceError as exc:
                raise BadInput("cli.error.line", number=number, reason=exc) from None
            print(json.dumps(_score_json(roll, r)), flush=True)
        return
    roll = parse_dice(dice, r.dice)
    data = _score_json(roll, r)
    if as_json:
        print(json.dumps(data))
        return
    shown = " ".join(map(str, roll))
    t = translator(ctx)
    if data["wins_game"]:
        out.print(t("cli.score.wins", roll=shown))
    if data["farkle"]:
        out.print(t(f"cli.score.{farkle_code(roll)}", roll=shown))
        return
    if r.set_aside is SetAsideRule.ALL:
        out.print(t("cli.score.all"))
    table = Table(t("cli.score.set_aside"), t("cli.score.points"), t("cli.score.dice_left"),
                  title=t("cli.score.title", roll=shown, rules=r))
    for o in data["options"]:
        left = t("cli.score.hot_dice") if o["dice_left"] == 0 else str(o["dice_left"])
        table.add_row(" ".join(map(str, o["keep"])), str(o["points"]), left)
    out.print(table)


@app.command("odds", help="Exact odds of one roll per number of dice: farkle risk and mean best score.")
def odds_command(ctx: typer.Context, rules: RulesOption = "farkle", as_json: JsonOption = False) -> None:
    r = parse_rules(rules)
    rows = exact_odds(r)
    if as_json:
        print(
            json.dumps(
                {
                    "rules": str(r),
                    "dice": [
                        {
                            "dice": o.dice,
                            "farkle": str(o.farkle),
                            "farkle_percent": round(100 * float(o.farkle), 4),
                            "mean_best": str(o.mean),
                            "mean_best_points": round(float(o.mean), 4),
                            "wins_game": str(o.wins_game),
                            "best": {str(k): str(v) for k, v in o.best.items()},
                        }
                        for o in rows
                    ],
                }
            )
        )
        return
    t = translator(ctx)
    table = Table(t("cli.odds.dice"), t("cli.odds.risk"), t("cli.odds.exact"), t("cli.odds.mean"),
                  title=t("cli.odds.title", rules=r))
    for o in reversed(rows):
        table.add_row(str(o.dice), percent(t, float(o.farkle)), str(o.farkle), t.decimal(float(o.mean)))
    out.print(table)
