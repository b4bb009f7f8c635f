"""``hotdice solve``: the rules solved, solo (expected points, bank thresholds, turns to the target) or for two
players (the first player's chance and the fairest handicap)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from hotdice.cli.common import BadInput, JsonOption, RulesOption, out, parse_rules, percent, point, solving, translator
from hotdice.game.rules import Rules

__all__ = ["app"]

app = typer.Typer()


def _bank_thresholds(r: Rules) -> list[dict[str, Any]]:
    """Per dice in hand: the smallest turn total from which banking is always at least as good as rolling
    (expected points of the turn, once entered), and whether rolling is better somewhere above a lower one."""
    from hotdice.analysis.expectation import turn_values

    tv = turn_values(r)
    rows = []
    for n in range(1, r.dice + 1):
        threshold = tv.bank_from(n)
        rows.append({"dice": n, "bank_from": threshold, "roll_value_there": tv.roll_value(threshold, n)})
    return rows


@app.command("solve", help="Solve the rules: best play's values, cached in the user's cache folder "
             "(HOTDICE_CACHE_DIR). Solo: expected points of a turn, bank thresholds by dice in hand, expected "
             "turns to the target. Two players: the first player's chance and the fairest handicap.")
def solve_command(
    ctx: typer.Context,
    rules: RulesOption = "farkle",
    players: Annotated[int, typer.Option("--players", "-p", metavar="1|2", help="1: solo; 2: two players.")] = 2,
    as_json: JsonOption = False,
    check_table: Annotated[
        bool, typer.Option("--check", help="Also report the largest Bellman residual of the solved table (slow).")
    ] = False,
) -> None:
    from hotdice.analysis.solver import race_solution, refusal, two_player_solution
    from hotdice.analysis.solver.check import check

    r = parse_rules(rules)
    if players not in (1, 2):
        raise BadInput("cli.error.players", players=players)
    if (reason := refusal(r)) is not None and (players == 2 or not r.three_farkles):
        raise BadInput("cli.solve.refused", rules=r, reason=reason)
    t = translator(ctx)
    data: dict[str, Any] = {"rules": str(r), "players": players}
    with solving(t("cli.solve.solving", rules=r, players=t.plural("cli.solve.players", players)), as_json):
        if players == 1:
            from hotdice.analysis.expectation import turn_values

            tv = turn_values(r)
            data["turn_points"] = tv.turn_value(entered=True)
            if r.entry:
                data["first_turn_points"] = tv.turn_value(entered=False)
            data["bank_thresholds"] = _bank_thresholds(r)
            race = None if r.three_farkles else race_solution(r)
            data["turns_to_target"] = None if race is None else float(race.turns[0])
            if check_table and race is not None:
                data["residual"] = check(race)
        else:
            sol = two_player_solution(r)
            data["first_player_wins"] = float(sol.w[0, 0])
            handicap, chance = sol.fairest_handicap()
            data["handicap"] = handicap
            data["first_player_wins_with_handicap"] = chance
            data["solve_seconds"] = sol.seconds
            if check_table:
                data["residual"] = check(sol)
    if as_json:
        print(json.dumps(data))
        return
    out.print(t("cli.rules.line", rules=r))
    if players == 1:
        out.print(t("cli.solve.turn_points", points=t.decimal(data["turn_points"])))
        if r.entry:
            out.print("  " + t("cli.solve.before_entry", entry=r.entry, points=t.decimal(data["first_turn_points"])))
        table = Table(t("cli.solve.dice"), t("cli.solve.bank_from"), title=t("cli.solve.thresholds"))
        for row in data["bank_thresholds"]:
            table.add_row(str(row["dice"]), str(row["bank_from"]))
        out.print(table)
        turns = data["turns_to_target"]
        out.print(t("cli.solve.turns", turns=t("cli.solve.unsolved") if turns is None else t.decimal(turns, 3)))
    else:
        wins = data["first_player_wins"]
        out.print(t("cli.solve.first", percent=percent(t, wins), p=t.decimal(wins, 6)))
        out.print(t("cli.solve.handicap", points=data["handicap"],
                    percent=percent(t, data["first_player_wins_with_handicap"])))
    if "residual" in data:
        out.print(t("cli.solve.residual", value=point(t, f"{data['residual']:.3g}")))
