"""``hotdice advise``: the coach on a position given by its numbers or as the engine writes it, with the dice
just rolled."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from hotdice.cli.common import BadInput, JsonOption, RulesOption, out, parse_rules, percent, solving, translator
from hotdice.game.scoring import parse_dice

if TYPE_CHECKING:
    from hotdice.game.engine import Game
    from hotdice.game.rules import Rules
    from hotdice.i18n import Translator

__all__ = ["app"]

app = typer.Typer()


@app.command("advise", help="The coach: every set-aside of a roll with bank or roll again, valued exactly, best "
             "first, and what each worse choice costs. Without DICE: roll or bank.")
def advise_command(
    ctx: typer.Context,
    scores: Annotated[
        str | None,
        typer.Option("--scores", "-s", metavar="YOU,THEM,...",
                     help="Banked scores: yours first, then the others in the order they play after you."),
    ] = None,
    dice: Annotated[list[str] | None, typer.Argument(help="The dice just rolled: 1 5 5 2 3 4 or 155234.")] = None,
    turn: Annotated[int, typer.Option("--turn", "-t", metavar="POINTS", help="Points set aside this turn so far.")] = 0,
    dice_left: Annotated[
        int | None, typer.Option("--dice-left", "-d", metavar="N", help="Dice in hand (default: as many as DICE).")
    ] = None,
    at: Annotated[
        str | None,
        typer.Option("--position", "-p", metavar="POSITION",
                     help="Instead of --scores, --turn and --dice-left: a whole position, as the engine writes it "
                     "(e.g. '3000,4500 0 350/2 - - - 2.2 -'); the coach advises the seat to act."),
    ] = None,
    rules: RulesOption = "farkle",
    as_json: JsonOption = False,
) -> None:
    from hotdice.analysis.coach import advise
    from hotdice.game.engine import IllegalMoveError, InvalidMoveError
    from hotdice.play.advice import NobodyToAct, ask

    r = parse_rules(rules)
    if at is not None:
        if scores is not None or turn or dice_left is not None:
            raise BadInput("cli.error.position_alone")
        game, roll = _at_position(r, at, dice)
    else:
        game, roll = _at_scores(r, scores, turn, dice_left, dice)
    try:
        asked = ask(game, roll)
    except NobodyToAct as exc:
        raise BadInput("cli.error.position_rolling" if exc.rolling else "cli.error.position_over") from None
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise BadInput("cli.error.dice", reason=exc) from None
    n = asked.dice_in_hand
    data: dict[str, Any] = {"rules": str(r), "scores": list(asked.scores), "turn": asked.turn_total, "dice_left": n,
                            "dice": None if asked.roll is None else list(asked.roll)}
    if asked.ended is not None:
        data.update(outcome=asked.ended, choices=[])
        if as_json:
            print(json.dumps(data))
            return
        out.print(translator(ctx)(f"cli.advise.{asked.ended}", target=r.target))
        return
    t = translator(ctx)
    with solving(t("cli.advise.solving"), as_json):
        advice = advise(asked.game)
    data.update(outcome=None, measure=advice.measure, choices=[
        {"keep": None if c.set_aside is None else str(c.set_aside), "then": c.then, "value": c.value, "cost": c.cost}
        for c in advice.choices
    ])
    if as_json:
        print(json.dumps(data))
        return
    where = t("cli.advise.position", scores="-".join(map(str, asked.scores)), turn=asked.turn_total,
              dice=t.plural("cli.advise.dice", n))
    title = (t("cli.advise.roll", where=where, roll=" ".join(map(str, asked.roll))) if asked.roll is not None
             else t("cli.advise.roll_or_bank", where=where))
    table = Table(t("cli.advise.choice"), t("cli.advise.value"), t("cli.advise.cost"),
                  title=t("cli.advise.title", title=title, rules=r))
    for k, c in enumerate(advice.choices):
        cost = t("cli.advise.best") if k == 0 else _cost(t, advice.measure, c.cost)
        table.add_row(_decision(t, c.set_aside, c.then), _value(t, advice.measure, c.value), cost)
    out.print(table)


def _at_position(r: Rules, at: str, dice: list[str] | None) -> tuple[Game, tuple[int, ...] | None]:
    """The game of ``--position``, read by the engine, and the dice given."""
    from hotdice.game.engine import Game, PositionError

    try:
        game = Game.from_position(r, at)
    except PositionError as exc:
        raise BadInput("cli.error.position", reason=exc) from None
    return game, parse_dice(dice, r.dice) if dice else None


def _at_scores(r: Rules, scores: str | None, turn: int, dice_left: int | None,
               dice: list[str] | None) -> tuple[Game, tuple[int, ...] | None]:
    """The game of ``--scores``, ``--turn`` and ``--dice-left`` (:func:`hotdice.game.position.position`), and the
    dice given."""
    from hotdice.game.engine import PositionError
    from hotdice.game.position import position

    if scores is None:
        raise BadInput("cli.error.no_scores")
    try:
        banked = [int(s) for s in scores.split(",")]
    except ValueError:
        raise BadInput("cli.error.scores", scores=scores) from None
    roll = parse_dice(dice, r.dice) if dice else None
    if roll is not None and dice_left is not None and len(roll) != dice_left:
        raise BadInput("cli.error.dice_left", given=len(roll), dice_left=dice_left)
    n = dice_left if dice_left is not None else (len(roll) if roll is not None else r.dice)
    try:
        return position(r, banked, turn_total=turn, dice_in_hand=n), roll
    except PositionError as exc:
        raise BadInput("cli.error.plain", message=exc) from None


def _decision(t: Translator, set_aside: object, then: object) -> str:
    """A choice of the coach in the coach's words: the terminal's hints, which say it the same way."""
    return t(f"hint.then_{then}") if set_aside is None else t(f"hint.keep_then_{then}", keep=set_aside)


def _value(t: Translator, measure: str, value: float) -> str:
    """What a choice is worth, by the coach's measure."""
    if measure == "win":
        return t("hint.win", p=percent(t, value))
    if measure == "turns":
        return t("hint.turns", n=t.decimal(value, 2))
    return t("hint.points", points=t.decimal(value, 0))


def _cost(t: Translator, measure: str, cost: float) -> str:
    if measure == "win":
        return t("cli.advise.cost_win", cost=t.decimal(100 * cost, 2))
    if measure == "turns":
        return t("cli.advise.cost_turns", cost=t.decimal(cost, 3))
    return t("cli.advise.cost_points", cost=t.decimal(cost, 1))
