"""Every message of hotdice's front ends (the CLI's human output, the terminal, the pages, the browser's
script) in one gettext catalogue per language: ``locales/<lang>/LC_MESSAGES/hotdice.po``.

A message id is a stable key (``table.risk``, ``refusal.not-scoring``): the English catalogue gives the English
text, so a key means the same in every front end; placeholders are written ``{name}``. The engine hands out
refusals as data (:class:`hotdice.game.refusals.Refusal`) and :meth:`Translator.refusal` words them from their
code, one message per code.

A new message goes into both ``.po`` files (tests/test_i18n.py fails on an id missing from either, on differing
placeholders and on French typography); plural forms as ``msgid "x.one"`` / ``msgid_plural "x.many"``
(:meth:`Translator.plural`). Nothing to compile by hand: the cache follows the ``.po``'s digest.

Reading the ``.po`` files with Babel costs 40–110 ms (BENCHMARKS.md), too much for ``hotdice score``: each catalogue
is compiled once to a ``.mo`` in the cache folder, named by the digest of its ``.po`` (an edited ``.po`` gets a
new one), and read with the standard library's ``gettext`` in 1–3 ms.
"""

from __future__ import annotations

import datetime
import gettext
import hashlib
import io
import locale
import os
import tempfile
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal, parse_pattern

from hotdice.game.engine import IllegalMoveError
from hotdice.game.refusals import Refusal, Refused, Words

if TYPE_CHECKING:
    from hotdice.analysis.solver import TooLong
    from hotdice.analysis.solver.background import Status

__all__ = [
    "LANGUAGES", "LOCALES", "Namer", "Translator", "catalog", "decimal", "detect_language", "number", "percent",
    "seated",
]

LANGUAGES = ("en", "fr")
DOMAIN = "hotdice"
LOCALES = Path(__file__).parent / "locales"


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class _Messages(gettext.GNUTranslations):
    """A compiled catalogue; ``_catalog`` is where ``GNUTranslations`` keeps its messages: msgid -> text, and
    (msgid, form) -> text for a message with plural forms."""

    _catalog: dict[str | tuple[str, int], str]


def _compile(po: bytes, lang: str) -> bytes:
    """The ``.mo`` of a ``.po`` (Babel is needed only here, once per edit of the catalogue)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = io.BytesIO()
    write_mo(out, read_po(io.BytesIO(po), locale=lang, domain=DOMAIN))
    return out.getvalue()


def _mo(lang: str) -> bytes:
    """The compiled catalogue of ``lang`` from the cache, compiled and stored there when missing; compiled in
    memory when the cache cannot be written."""
    po = po_path(lang).read_bytes()
    folder = Path(os.environ.get("HOTDICE_CACHE_DIR") or platformdirs.user_cache_dir("hotdice")) / "locales"
    path = folder / f"{DOMAIN}-{lang}-{hashlib.sha256(po).hexdigest()[:16]}.mo"
    try:
        return path.read_bytes()
    except OSError:
        pass
    mo = _compile(po, lang)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False) as out:  # replaced at once: never half read
            out.write(mo)
        os.replace(out.name, path)
    except OSError:
        pass
    return mo


@cache
def _messages(lang: str) -> _Messages:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language '{lang}': choose one of {', '.join(LANGUAGES)}")
    messages = _Messages(io.BytesIO(_mo(lang)))
    if lang != "en":
        messages.add_fallback(_messages("en"))
    return messages


def catalog(lang: str, context: str | None = None) -> Mapping[str, str]:
    """Every message of ``lang`` without plural forms, key -> text, in a front end's ``context`` (its own
    wording of a key where it has one); without a context, the messages the browser's script gets."""
    singular = {key: text for key, text in _messages(lang)._catalog.items() if isinstance(key, str) and key}
    mine = f"{context}\x04"
    own = {key.removeprefix(mine): text for key, text in singular.items() if context and key.startswith(mine)}
    return {key: text for key, text in singular.items() if "\x04" not in key} | own


def number(n: int, lang: str) -> str:
    """A whole number as the language writes it (CLDR): 10,000 in English, 10 000 in French (narrow no-break
    space)."""
    return format_decimal(n, locale=lang)


def percent(p: float, lang: str, digits: int = 1) -> str:
    """A probability as a percentage with ``digits`` decimals, by the language's CLDR pattern: 66.7% in English,
    66,7 % in French (no-break space). Rounded first as Python rounds the float, so that ties come out as they
    always have."""
    pattern = parse_pattern(Locale.parse(lang).percent_formats[None].pattern)
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(Decimal(f"{100 * p:.{digits}f}") / 100, lang))


def decimal(value: float, lang: str, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals and the language's decimal sign, ungrouped (expected points: 523.4,
    523,4); rounded as Python rounds the float."""
    return format_decimal(Decimal(f"{value:.{digits}f}"), format="0." + "0" * digits, locale=lang)


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the user's locale: French for any ``fr`` locale, English otherwise."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    if environ is None:
        found = locale.getlocale()[0] or ""
        return "fr" if found.lower().startswith("fr") else "en"
    return "en"


class Translator:
    """The messages of one language (a key missing there falls back to English, then to the key itself);
    numbers and percentages written the way that language writes them (:func:`number`, :func:`percent`).

    A front end whose wording of a key differs from the others' sets :attr:`context`: its messages are found
    under that gettext context first (``msgctxt "tui"``), then without one."""

    context: str | None = None

    def __init__(self, lang: str) -> None:
        self._messages = _messages(lang)
        self._own = _messages("en")._catalog if self.context is not None else {}
        self.lang = lang
        self._words = Words(" ou ") if lang == "fr" else Words()

    def _text(self, key: str) -> str:
        if self.context is not None and f"{self.context}\x04{key}" in self._own:
            return self._messages.pgettext(self.context, key)
        return self._messages.gettext(key)

    def __call__(self, key: str, **values: object) -> str:
        text = self._text(key)
        return text.format(**values) if values else text

    def has(self, key: str) -> bool:
        return key in self._messages._catalog

    def plural(self, key: str, n: int, **values: object) -> str:
        """The message ``key.one`` (plural ``key.many``) in the form for ``n``, by the catalogue's plural rule:
        French puts 0 and 1 in the singular, English only 1."""
        return self._messages.ngettext(f"{key}.one", f"{key}.many", n).format(n=n, **values)

    def dice(self, n: int) -> str:
        return self.plural("dice", n)

    def number(self, n: int) -> str:
        return number(n, self.lang)

    def percent(self, p: float, digits: int = 1) -> str:
        return percent(p, self.lang, digits)

    def decimal(self, value: float, digits: int = 1) -> str:
        return decimal(value, self.lang, digits)

    def date(self, day: datetime.date | str) -> str:
        """A day (a date or its ISO text) by the catalogue's CLDR pattern (``format.date``): 2026-12-01 in English
        as always, 1 décembre 2026 in French."""
        shown = datetime.date.fromisoformat(day) if isinstance(day, str) else day
        return format_date(shown, format=self._text("format.date"), locale=self.lang)

    def refusal(self, refusal: Refusal, names: Namer | None = None) -> str:
        """A refusal of the engine, the rules or the modes, worded in this language from its code and values;
        ``names``: how this front end names a seat (see :func:`seated`)."""
        values = {k: self.refusal(v, names) if isinstance(v, Refusal) else v for k, v in refusal.values.items()}
        return self._words.format(self._text(f"refusal.{refusal.code}"), **seated(values, names))

    def error(self, error: Exception, names: Namer | None = None) -> str:
        """An error in this language: its refusal if it carries one (a refused bank says so), else as it is."""
        if not isinstance(error, Refused):
            return str(error)
        reason = self.refusal(error.refusal, names)
        banking = isinstance(error, IllegalMoveError) and error.bank
        return self("refusal.cannot_bank", reason=reason) if banking else reason

    def too_long(self, reason: TooLong) -> str:
        """Why Hard cannot play some rules exactly (:class:`hotdice.analysis.solver.TooLong`), from its fields:
        in English, its ``str()``."""
        return self("hard.too_long", max=reason.max_target, target=reason.target)

    def unsolved(self, status: Status) -> str:
        """Why a table of the background solver will not come, from its facts: the rules are refused
        (:meth:`too_long`), the queue is full or the solve failed (``solver.<code>``); its state for any other."""
        if status.too_long is not None:
            return self.too_long(status.too_long)
        if status.why is not None:
            return self(f"solver.{status.why.code}", **status.why.values)
        return status.state


# How a front end names a seat: from its index and the name the game holds (a seat nobody named holds its English
# default words), the name it shows in its language.
Namer = Callable[[int, str], str]


def seated(values: Mapping[str, Any], names: Namer | None) -> dict[str, Any]:
    """``values`` with each player's name that comes with its seat (``x`` beside ``x_seat``: see
    :class:`hotdice.game.refusals.Refusal`; names ``x`` beside their seats ``x_seats``) as ``names`` shows that
    seat; as they are without ``names``."""
    def shown(key: str, value: Any) -> Any:
        if names is None:
            return value
        seat, seats = values.get(f"{key}_seat"), values.get(f"{key}_seats")
        if isinstance(seat, int) and isinstance(value, str):
            return names(seat, value)
        if isinstance(seats, tuple | list) and isinstance(value, tuple | list):
            return tuple(names(s, v) for s, v in zip(seats, value, strict=True))
        return value

    return {key: shown(key, value) for key, value in values.items()}
