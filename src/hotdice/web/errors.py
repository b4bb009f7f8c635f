"""What the services refuse, as 4xx answers that say why; never a 5xx for a bad request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from hotdice.game.engine import IllegalMoveError
from hotdice.game.refusals import Refused
from hotdice.i18n import Namer, seated
from hotdice.web.i18n import Translator, seat_name

__all__ = [
    "ENGLISH", "BadRequest", "Conflict", "Forbidden", "Gone", "KeyRevealed", "NotFound", "Stale", "TooMany", "WebError",
    "said_body",
]


class WebError(Exception):
    """A refusal: an HTTP status, a reason a person can read, and a short machine code. ``because``: the
    library's error behind it; when it is a refusal of the game or the rules, the answer carries it as data
    (``refusal``: its code and values, and whether it refused a bank), for a page to word; one made by
    :meth:`said` carries its catalogue message (``message``: its key and values) for the same."""

    status = 400
    code = "bad-request"

    def __init__(self, reason: str, *, because: Exception | None = None, **extra: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.extra = extra
        self.because = because
        self.seats: list[dict[str, Any] | None] | None = None  # its game's seats' default names (seated)
        self.headers: dict[str, str] = {}  # sent with the answer (Retry-After)
        if isinstance(because, Refused):
            banking = isinstance(because, IllegalMoveError) and because.bank
            self.extra["refusal"] = {**because.refusal.to_json(), "bank": banking}

    @classmethod
    def said(cls, key: str, /, **values: Any) -> Self:
        """The refusal the catalogue's message ``key`` words with ``values``: its reason in English, the key
        and the values in the answer, for a page to word in its own language."""
        return cls(ENGLISH(key, **values)).saying(key, **values)

    def saying(self, key: str, /, **values: Any) -> Self:
        """This refusal, its reason kept, carrying the catalogue's message ``key`` with ``values`` for a page."""
        self.extra["message"] = {"key": key, "values": values}
        return self

    def seated(self, seats: Sequence[dict[str, Any] | None]) -> Self:
        """This refusal with its game's seats' default names (``seats``: each one's code, None for a chosen name),
        carried beside a refusal or message that names a player as ``seats``: a player's name it gives with its
        seat (``name`` and ``name_seat``, :class:`hotdice.game.refusals.Refusal`) is worded from that seat's
        default, if it has one."""
        self.seats = list(seats)
        for carried in ("refusal", "message"):
            values = self.extra.get(carried, {}).get("values", {})
            if any(f"{key}_seat" in values for key in values):  # only where it names a player
                self.extra[carried]["seats"] = self.seats
        return self

    def _names(self, t: Translator) -> Namer | None:
        seats = self.seats
        if seats is None:
            return None
        return lambda seat, name: seat_name(t, name, seats[seat] if 0 <= seat < len(seats) else None)

    def carrying(self, **extra: Any) -> Self:
        """This refusal with ``extra`` in its answer too (the game as it is now, say)."""
        self.extra.update(extra)
        return self

    def worded(self, t: Translator) -> str:
        """The reason in ``t``'s language: from the refusal or the message it carries, else as it is."""
        message = self.extra.get("message")
        if message is not None:
            return t(message["key"], **seated(message["values"], self._names(t)))
        if isinstance(self.because, Refused):
            return t.error(self.because, self._names(t))
        return self.reason

    def body(self) -> dict[str, Any]:
        return {"detail": self.reason, "code": self.code, **self.extra}


ENGLISH = Translator("en")  # the API's own words: its English is a contract for scripts


def said_body(code: str, key: str, /, **values: Any) -> dict[str, Any]:
    """The answer of a refusal made before the app knows the page's language (a limit, a guard): its English
    ``detail``, its ``code``, and the catalogue's message ``key`` with ``values`` for a page to word."""
    return {**WebError.said(key, **values).body(), "code": code}


class BadRequest(WebError):
    pass


class Forbidden(WebError):
    status = 403
    code = "forbidden"


class NotFound(WebError):
    status = 404
    code = "not-found"


class Gone(WebError):
    """It was here and is no more: a link code used, expired or revoked."""

    status = 410
    code = "gone"


class TooMany(WebError):
    """Asked too often: the answer says when to ask again (Retry-After)."""

    status = 429
    code = "rate-limited"

    def waiting(self, seconds: int) -> TooMany:
        self.headers["retry-after"] = str(seconds)
        return self


class Conflict(WebError):
    """Well-formed, but not now: an illegal move, a closed challenge, a full table."""

    status = 409
    code = "conflict"


class Stale(Conflict):
    """An action sent with an action number the game has moved past: nothing changed; here is the game now."""

    code = "stale"


class KeyRevealed(Conflict):
    """An action on a seeded game whose dice key is revealed: every roll is known, so the game ended there."""

    code = "key-revealed"
