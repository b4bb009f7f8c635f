"""What the services refuse, as 4xx answers that say why; never a 5xx for a bad request."""

from __future__ import annotations

from typing import Any, Self

from hotdice.game.engine import IllegalMoveError
from hotdice.game.refusals import Refused
from hotdice.web.i18n import Translator

__all__ = ["ENGLISH", "BadRequest", "Conflict", "Forbidden", "KeyRevealed", "NotFound", "Stale", "WebError"]


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
        if isinstance(because, Refused):
            banking = isinstance(because, IllegalMoveError) and because.bank
            self.extra["refusal"] = {**because.refusal.to_json(), "bank": banking}

    @classmethod
    def said(cls, key: str, /, **values: Any) -> Self:
        """The refusal the catalogue's message ``key`` words with ``values``: its reason in English, the key
        and the values in the answer, for a page to word in its own language."""
        error = cls(ENGLISH(key, **values))
        error.extra["message"] = {"key": key, "values": values}
        return error

    def carrying(self, **extra: Any) -> Self:
        """This refusal with ``extra`` in its answer too (the game as it is now, say)."""
        self.extra.update(extra)
        return self

    def worded(self, t: Translator) -> str:
        """The reason in ``t``'s language: from the refusal or the message it carries, else as it is."""
        message = self.extra.get("message")
        if message is not None:
            return t(message["key"], **message["values"])
        if isinstance(self.because, Refused):
            return t.error(self.because)
        return self.reason

    def body(self) -> dict[str, Any]:
        return {"detail": self.reason, "code": self.code, **self.extra}


ENGLISH = Translator("en")  # the API's own words: its English is a contract for scripts


class BadRequest(WebError):
    pass


class Forbidden(WebError):
    status = 403
    code = "forbidden"


class NotFound(WebError):
    status = 404
    code = "not-found"


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
