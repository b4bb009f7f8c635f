"""What the verbs share: the options every one of them takes, a user mistake as facts, the language's words
and figures, and the progress bar of a solve."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from hotdice.game.rules import KNOBS, Rules, RulesError
from hotdice.game.variants import VARIANTS

if TYPE_CHECKING:
    from hotdice.game.told import Told
    from hotdice.i18n import Translator

__all__ = [
    "KNOB_HELP", "LANGUAGES", "RULES_HELP", "BadInput", "JsonOption", "RulesOption", "out", "parse_rules", "percent",
    "point", "read_record", "solving", "tell", "translator",
]

LANGUAGES = ("en", "fr")  # hotdice.i18n's, which is imported only by a command that prints words

out = Console(highlight=False)

KNOB_HELP = "\n\n".join(f"{k.name}: {k.help} [{k.accepted()}]" for k in KNOBS)
RULES_HELP = (
    "The rules in force: a preset (" + ", ".join(v.name for v in VARIANTS) + ") followed by "
    "comma-separated knob=value overrides, e.g. farkle,entry=500,three_farkles=1000."
)
RulesOption = Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP, metavar="RULES")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


class BadInput(Exception):
    """A user mistake as facts: the catalogue's key of its sentence (``cli.error.*``) and the values it names,
    worded in the user's language only at the edge (:func:`hotdice.cli.command.main`), so that scripts read the
    same English."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def translator(ctx: typer.Context) -> Translator:
    """The words of the language ``--lang`` chose (the catalogue is read only by a command that prints them)."""
    from hotdice.i18n import Translator

    return Translator(ctx.obj or "en")


def parse_rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BadInput("cli.error.rules", reason=exc) from None


def percent(t: Translator, p: float) -> str:
    """66.7 % (the command's English keeps its space), 66,7 % in French."""
    return t("cli.percent", value=t.decimal(100 * p))


def point(t: Translator, figure: str) -> str:
    """A figure Python wrote (its precision, as the English output has always had it) with the language's
    decimal sign."""
    from babel.numbers import get_decimal_symbol

    return figure.replace(".", get_decimal_symbol(t.lang))


def read_record(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput("cli.error.read", file=file, reason=exc) from None
    except UnicodeDecodeError:
        raise BadInput("cli.error.not_text", file=file) from None


def tell(lang: str, facts: Sequence[Told]) -> list[str]:
    """Facts of a replay or a verification (:mod:`hotdice.game.told`): the library's English, or the catalogue's
    words in another language."""
    if lang == "en":
        return [str(fact) for fact in facts]
    from hotdice.i18n import Translator
    from hotdice.i18n.told import tell as worded

    return worded(Translator(lang), facts)


@contextlib.contextmanager
def solving(text: str, quiet: bool) -> Iterator[None]:
    """A progress bar on stderr while a table is solved (nothing in JSON mode or when stderr is not a
    terminal): the solver reports the share done (:data:`hotdice.analysis.solver.PROGRESS`)."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from hotdice.analysis.solver import PROGRESS

    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(text, total=1.0)
        token = PROGRESS.set(lambda share: bar.update(task, completed=share))
        try:
            yield
        finally:
            PROGRESS.reset(token)
