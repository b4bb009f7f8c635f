"""``hotdice review``: a finished game weighed decision by decision (:mod:`hotdice.analysis.game_review`), as a
chart and labelled decisions in the user's language, or as the one JSON text the web API answers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from hotdice.cli.common import LANGUAGES, BadInput, JsonOption, out, read_record, solving, translator

__all__ = ["app"]

app = typer.Typer()


@app.command("review", help="Review a game: the chance to win (or expected points, or turns) after every roll and "
             "decision, each decision labelled by what it lost against the best play, luck apart from skill, and each "
             "player's accuracy. RECORD: a record file, or - for stdin. --json: the same object as the web API's.")
def review_command(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="The game record (JSON), or - to read it from stdin.", metavar="RECORD")],
    as_json: JsonOption = False,
    player: Annotated[int | None, typer.Option("--player", metavar="N", help="Only player N's decisions (1 for the "
                                               "first seat), and the chart of N's value.")] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help="Language of the text.")] = None,
) -> None:
    from hotdice.analysis.game_review import game_review
    from hotdice.game.record import Record, RecordError

    if lang is not None and lang not in LANGUAGES:
        raise BadInput("cli.error.language", lang=lang, languages=", ".join(LANGUAGES))
    ctx.obj = lang or ctx.obj
    t = translator(ctx)
    text = sys.stdin.read() if file == "-" else read_record(Path(file))
    try:
        record = Record.from_json(text)
        if player is not None and not 1 <= player <= len(record.players):
            raise BadInput("cli.error.review_player", player=player, players=len(record.players))
        with solving(t("cli.advise.solving"), as_json):
            review = game_review(record)
    except RecordError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    if as_json:
        print(review.json_text())
        return
    from hotdice.i18n.review import review_lines

    for line in review_lines(t, review, player=None if player is None else player - 1, width=out.width):
        print(line)
