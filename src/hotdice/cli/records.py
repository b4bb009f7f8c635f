"""``hotdice replay`` and ``hotdice verify``: a game record replayed turn by turn, or checked against its dice
key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from hotdice.cli.common import BadInput, out, read_record, tell

__all__ = ["app"]

app = typer.Typer()

_HEADINGS = ("turn", "game_over", "game_over_shared", "unfinished")  # the facts a replay shows in bold


@app.command("replay", help="Replay a game record turn by turn, checking it; --json prints the rebuilt final state.")
def replay_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The game record (JSON).", metavar="FILE")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rebuilt final state as JSON.")] = False,
) -> None:
    from hotdice.game.record import Record, RecordError, replay, state_json, told
    from hotdice.play.modes import shown_rules

    text = read_record(file)
    try:
        record = Record.from_json(text)
        if as_json:
            print(json.dumps(state_json(replay(record))))
            return
        facts = told(record, rules_shown=shown_rules(record.rules))
    except RecordError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    for fact, line in zip(facts, tell(ctx.obj or "en", facts), strict=True):
        style = "bold" if fact.code in _HEADINGS else None
        out.print(line, style=style, markup=False, soft_wrap=True)


@app.command("verify", help="Check a finished game's record against its revealed dice key: every roll, the key's "
             "commitment, every action and the result. Exit 0 if it verifies; 1 if it describes a game whose dice, "
             "key, commitment or result do not match (the first mismatch); 2 if it cannot describe a game under its "
             "rules (unreadable, a set-up or a history line the rules refuse, a turn limit its history never "
             "reaches) or there is nothing to check.")
def verify_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The game record (JSON).", metavar="RECORD")],
    key: Annotated[str | None, typer.Option("--key", help="The revealed dice key, when the record lacks it.",
                                            metavar="HEX")] = None,
    commitment: Annotated[str | None, typer.Option("--commitment", help="The published SHA-256 of the key.",
                                                   metavar="HEX")] = None,
) -> int:
    from hotdice.game.verify import VerifyError, verify_text

    text = read_record(file)
    try:
        verdict = verify_text(text, key=key, commitment=commitment)
    except VerifyError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    for line in tell(ctx.obj or "en", verdict.told):
        print(line)
    return 0 if verdict.valid else 1
