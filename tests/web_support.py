"""What the web tests share: a simple way to play through the API as a browser would, and the words a page
says for an answer."""

from __future__ import annotations

from typing import Any

from hotdice.i18n import catalog, seated
from hotdice.web.i18n import Translator, seat_name
from tests.french_support import english_left

BANK_AT = 300  # the test player banks as soon as it may with at least this much


def next_intent(view: dict[str, Any]) -> dict[str, Any]:
    """A plain strategy that reads only what the page shows: the best set-aside, bank from BANK_AT on."""
    if view["phase"] == "set-aside":
        best = view["options"][0]
        total = view["turn_total"] + best["points"]
        if best["wins"]:
            return {"keep": best["set_aside"]}
        then = "bank" if best["bank_refusal"] is None and best["records"] and total >= BANK_AT else "roll"
        return {"keep": best["set_aside"], "then": then}
    return {"then": "bank" if view["can_bank"] and view["turn_total"] >= BANK_AT else "roll"}


def worded(body: dict[str, Any], lang: str = "fr") -> str:
    """What a page in ``lang`` says for an answer that carries its catalogue message (``message``, or ``said`` for
    an answer), as hd.js words it: a player's name given with its seat, from that seat's default name if it has one."""
    said = body.get("said") or body["message"]
    t, seats = Translator(lang), said.get("seats")
    names = None if seats is None else lambda seat, name: seat_name(t, name, seats[seat])
    return t(said["key"], **seated(said["values"], names))


def french_of(body: dict[str, Any]) -> str:
    """The French a page says for a refusal or an answer that carries its catalogue message, checked to hold no
    English and no placeholder left unfilled."""
    said = body.get("said") or body["message"]
    assert said["key"] in catalog("fr"), said
    french = worded(body)
    assert not english_left(french) and "{" not in french, (said, french)
    return french
