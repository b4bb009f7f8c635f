"""The ``hotdice`` command: the verbs' modules assembled into one Typer app, and :func:`main`, which runs it and
turns a user mistake into one line on stderr, exit 2."""

from __future__ import annotations

import errno
import sys
import unicodedata
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from hotdice.cli import advise, front_ends, plot, records, review, roll, rules, simulate, solve, stats
from hotdice.cli.common import LANGUAGES, BadInput, tell
from hotdice.cli.help import language, translate_help
from hotdice.game.rules import RulesError
from hotdice.game.scoring import DiceError

if TYPE_CHECKING:
    from hotdice.i18n import Translator

__all__ = ["app", "main"]

app = typer.Typer(
    name="hotdice",
    help="Farkle, 10 000 and 5000 dice games: exact rules, scoring and odds.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
# In the order `hotdice --help` lists them.
for verbs in (rules, roll, simulate, records, review, stats, front_ends, solve, advise, plot):
    app.add_typer(verbs.app)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    lang: Annotated[str, typer.Option("--lang", help="The language of the tables and sentences: en or fr (the "
                                      "JSON is the same in both).")] = "en",
) -> None:
    if lang not in LANGUAGES:
        raise BadInput("cli.error.language", lang=lang, languages=", ".join(LANGUAGES))
    ctx.obj = lang
    # `hotdice` alone prints the help, which is what a newcomer wants.
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


def _fail(lang: str, error: Exception) -> NoReturn:
    """A user mistake as one line on stderr, exit code 2: a :class:`BadInput` worded by the catalogue of ``lang``
    (an engine's error among its values, or alone, by its refusal)."""
    from hotdice.i18n import Translator

    t = Translator(lang)
    if isinstance(error, BadInput):
        message = t(error.key, **{name: _worded(t, value) for name, value in error.values.items()})
    else:
        message = t.error(error)
    print(f"hotdice: error: {_one_line(str(message))}", file=sys.stderr)
    raise SystemExit(2)


def _one_line(message: str) -> str:
    """The refusal on one line, whatever the user typed into it: a control character or a line separator it
    echoes (``entry=0\\r0``) is written as its escape."""
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in ("Cc", "Zl", "Zp")
                   else c for c in message)


def _worded(t: Translator, value: object) -> object:
    """A value of a :class:`BadInput` in ``t``'s language: an error by its refusal or its fact (a record's), a
    system error by its errno (the catalogue's ``os.<name>``, the system's own words for the others), a solve
    refused by its bound; a name or a number as it is."""
    from hotdice.analysis.solver import TooLong

    if isinstance(value, TooLong):
        return t.too_long(value)
    if isinstance(value, OSError):
        key = f"os.{errno.errorcode.get(value.errno or 0)}"
        return t(key) if t.has(key) else value.strerror or str(value)
    if told := getattr(value, "told", None):
        return tell(t.lang, [told])[0]
    return t.error(value) if isinstance(value, Exception) else value


def main(argv: list[str] | None = None) -> None:
    """Run the command; user mistakes become one line on stderr and exit code 2, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        # A terminal or pipe that cannot show a character (an ASCII locale) gets '?' rather than a crash.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    args = sys.argv[1:] if argv is None else argv
    command = typer.main.get_command(app)
    if (lang := language(args)) != "en":
        translate_help(command, lang)
    try:
        code = command.main(args=args, prog_name="hotdice", standalone_mode=False)
    except typer.TyperException as exc:  # unknown option, missing argument, bad value...: Click's English
        usage = exc.format_message().strip()
        _fail(lang, BadInput("cli.error.plain", message=usage.splitlines()[0]) if usage else
              BadInput("cli.error.usage"))
    except (BadInput, RulesError, DiceError) as exc:
        _fail(lang, exc)
    except typer.Abort:
        _fail(lang, BadInput("cli.error.aborted"))
    except BrokenPipeError:
        sys.stderr.close()
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)
