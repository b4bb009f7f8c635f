"""A bot for hotdice's online tables, through the bot API only (httpx).

    python examples/bot.py http://127.0.0.1:8000 TOKEN TABLE_CODE

TOKEN comes from ``POST /api/me/bot-tokens`` (shown once). The bot joins the table, waits for the host to
start, then follows the game's NDJSON stream and, whenever it is its turn, sets aside the best dice and banks
from 300 points on, through the same act endpoint people use. It prints the scores at the end.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import httpx

BANK_AT = 300


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The intent for the view's action number: the best set-aside, roll on, bank once it is worth BANK_AT."""
    if view["phase"] == "set-aside":
        best = view["options"][0]
        if best["wins"]:
            return {"n": view["n"], "keep": best["set_aside"]}
        total = view["turn_total"] + best["points"]
        may_bank = best["bank_refusal"] is None and best["records"] and total >= BANK_AT
        return {"n": view["n"], "keep": best["set_aside"], "then": "bank" if may_bank else "roll"}
    may_bank = view["can_bank"] and view["bank_records"] and view["turn_total"] >= BANK_AT
    return {"n": view["n"], "then": "bank" if may_bank else "roll"}


def wait_for_game(client: httpx.Client, code: str) -> str:
    """Join the table (again: a bot keeps its seat) and wait until the host starts the game."""
    client.post(f"/api/tables/{code}/join", json={}).raise_for_status()
    while True:
        table = client.get(f"/api/tables/{code}").raise_for_status().json()
        if table["game"] is not None:
            return str(table["game"])
        time.sleep(0.5)


def play(client: httpx.Client, game_id: str) -> dict[str, Any]:
    """Follow the game's stream, acting on each view where the bot is to act; the last view."""
    view: dict[str, Any] = {}
    with client.stream("GET", f"/api/bot/games/{game_id}/stream", timeout=None) as lines:
        lines.raise_for_status()
        for line in lines.iter_lines():
            message = json.loads(line)
            if message["type"] != "game":
                continue  # a keep-alive line
            view = message["view"]
            if view["outcome"] is None and view["to_act"] in view["you"]:
                answer = client.post(f"/api/games/{game_id}/act", json=choose(view))
                if answer.status_code not in (200, 409):  # 409: a view already out of date
                    answer.raise_for_status()
    return view


def main(url: str, token: str, code: str) -> int:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:
        view = play(client, wait_for_game(client, code))
    print(" ".join(f"{seat['name']}={seat['score']}" for seat in view["players"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
