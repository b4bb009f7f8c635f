"""What a replay or a verification tells (:mod:`hotdice.game.told`: facts as codes and values) in a front end's
language: a fact's sentence is the catalogue's ``transcript.<code>``, the ending of a game ``over.why.<ending>``,
a refusal among its values is worded by :meth:`hotdice.i18n.Translator.refusal`, numbers as the language writes
them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from hotdice.game.told import Telling, Told
from hotdice.i18n import Namer, Translator, seated

__all__ = ["key", "said", "tell", "telling"]


def key(code: str) -> str:
    """The catalogue's key of a fact's code."""
    return f"over.{code}" if code.startswith("why.") else f"transcript.{code}"


def telling(t: Translator, template: Callable[[str], str] | None = None) -> Telling:
    """The wording of facts in ``t``'s language; ``template``: the sentence of a code (default: the transcript's)."""

    def mode(name: str) -> str:
        return t(f"mode.{name}") if t.has(f"mode.{name}") else name

    def time(text: str) -> str:  # a record's time: 2026-12-01T23:59:59Z
        return t("transcript.time", day=t.date(text[:10]), time=text[11:19])

    return Telling(template or (lambda code: t(key(code))), number=t.number, refusal=t.refusal, mode=mode, time=time,
                   and_word=t("log.and"), then=t("transcript.then"))


def tell(t: Translator, facts: Iterable[Told]) -> list[str]:
    """A sentence per fact, in ``t``'s language."""
    words = telling(t)
    return [words.tell(fact) for fact in facts]


def said(t: Translator, message: str, values: Mapping[str, Any], names: Namer | None = None) -> str:
    """The catalogue's ``message`` (an event's ``log.<code>``: :attr:`hotdice.play.view.Entry.key`) filled with
    ``values`` the way facts are worded, each player's name as ``names`` shows its seat; the browser's ``HD.said``
    words the same."""
    return telling(t, t).tell(Told(message, seated(values, names)))
