"""What the web tests share: a simple way to play through the API as a browser would."""

from __future__ import annotations

from typing import Any

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
