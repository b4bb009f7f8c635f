"""The help in the user's language: the catalogue's help texts put on the command tree, and Click's own words
("Usage:", the section headings, "[default: ...]") worded by the catalogue too."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import typer

from hotdice.cli.common import LANGUAGES
from hotdice.game.rules import KNOBS
from hotdice.game.variants import VARIANTS
from hotdice.play.players import PLAYERS

if TYPE_CHECKING:
    from hotdice.i18n import Translator

__all__ = ["help_items", "language", "translate_help"]


def language(argv: Sequence[str]) -> str:
    """The language ``--lang`` asks for before the command, or after ``play``, whose own option it is (English
    when it is not given or not known): the help and the error lines are worded before, or without, the
    commands reading their options."""
    command = None
    for k, word in enumerate(argv):
        if word == "--lang" and k + 1 < len(argv):
            lang = argv[k + 1]
        elif word.startswith("--lang="):
            lang = word.removeprefix("--lang=")
        else:
            if command is None and not word.startswith("-"):
                command = word
            continue
        if command in (None, "play", "review"):
            return lang if lang in LANGUAGES else "en"
    return "en"


def _help_values(t: Translator) -> dict[str, str]:
    """What the help texts of the catalogue list: the presets, the knobs and the computer players."""
    def accepted(choices: tuple[str, ...] | None) -> str:
        return t("help.points") if choices is None else t("howto.or").join(choices)

    knobs = (t("help.knob", name=k.name, meaning=t(f"cli.knob.{k.name}"), accepted=accepted(k.choices()))
             for k in KNOBS)
    players = (t("help.player", name=k.name, meaning=t(f"help.player.{k.name}", spec="greedy:N"))
               for k in PLAYERS.values())
    return {"presets": ", ".join(v.name for v in VARIANTS), "knobs": "\n\n".join(knobs), "players": "; ".join(players),
            "example": "greedy,random", "example_n": "greedy:400,greedy"}  # player specs: code, not words


def help_items(command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every part of the command tree that has a help text, with the catalogue's keys for it, the command's own
    first: ``help.<command>`` (``help.hotdice`` for the root), an option's or an argument's
    ``help.<command>.<name>`` or ``help.any.<name>`` when several commands share it (``--rules``, ``--json``),
    and ``help.help`` for ``--help``."""
    for name, each in (("hotdice", command), *getattr(command, "commands", {}).items()):  # Typer's own Click
        yield (f"help.{name}",), each
        for param in each.params:
            if getattr(param, "help", None):
                yield (f"help.{name}.{param.name}", f"help.any.{param.name}"), param
        helper = each.get_help_option(typer.Context(each))
        if helper is not None:
            yield ("help.help",), helper


def translate_help(command: Any, lang: str) -> None:
    """Put the catalogue's help texts in ``lang`` on the command tree (:func:`help_items`)."""
    from hotdice.i18n import Translator

    t = Translator(lang)
    values = _help_values(t)
    for keys, part in help_items(command):
        part.help = t(next((key for key in keys if t.has(key)), keys[-1]), **values)
        if hasattr(part, "context_class"):  # a command: Click's own words of its help too
            part.context_class = type("Context", (part.context_class,), {"formatter_class": _formatter(t)})


def _formatter(t: Translator) -> type:
    """Click's help formatter with the catalogue's words for what Click and Typer write themselves: "Usage:", the
    section headings, "[default: ...]" and "[required]"."""
    base: Any = typer.Context.formatter_class

    class Formatter(base):  # type: ignore[misc]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, t("help.usage") if prefix is None else prefix)

        def write_heading(self, heading: str) -> None:
            self.write(f"{'':>{self.current_indent}}{t(f'help.section.{heading.lower()}')}\n")

        def write_dl(self, rows: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
            marks = {"[default: ": "[" + t("help.default"), "; required]": "; " + t("help.required") + "]",
                     "[required]": "[" + t("help.required") + "]"}
            for english, words in marks.items():
                rows = [(term, text.replace(english, words)) for term, text in rows]
            super().write_dl(rows, *args, **kwargs)

    return Formatter
