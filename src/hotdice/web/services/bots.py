"""Bot tokens: a player makes one for a program (shown once, stored as a hash, revocable); the program plays
as a bot of its own (a player with ``bot`` set) at online tables, through the same routes as people.

The token is the bot's device token: its SHA-256 is the bot's ``token_hash``, so every route that knows a
device knows the bot, and the per-device rate limit counts its requests. Revoking a token gives its bot a new
random hash: the token then names nobody (:func:`bot_of` finds none) and the bot keeps its seats and results.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from hotdice.store.web_models import WebBotToken, WebPlayer
from hotdice.web.errors import Forbidden, NotFound
from hotdice.web.services.players import clean_name, new_token, token_hash, valid_token

__all__ = ["BOT_PATHS", "Made", "bot_ids", "bot_of", "make", "mine", "revoke"]

# What a bot may ask: online tables (join, look), the games it is seated at (look, act, stream, record), and
# its own player. Everything else, the daily and the friend challenges first, is for people.
BOT_PATHS = ("/api/tables/", "/api/games/", "/api/bot/")


@dataclass(frozen=True)
class Made:
    row: WebBotToken
    token: str  # shown once: only its hash is kept


def make(session: Session, owner: WebPlayer, name: str) -> Made:
    """A new bot called ``name`` and its token, for ``owner`` (a person: bots make no tokens)."""
    if owner.bot:
        raise Forbidden.said("error.bot_no_tokens")
    token = new_token()
    bot = WebPlayer(id=secrets.token_hex(16), token_hash=token_hash(token), name=clean_name(name), rules=owner.rules,
                    bot=True)
    row = WebBotToken(id=secrets.token_hex(8), owner_id=owner.id, bot_id=bot.id, name=bot.name)
    session.add(bot)
    session.flush()
    session.add(row)
    session.flush()
    return Made(row, token)


def mine(session: Session, owner: WebPlayer) -> list[WebBotToken]:
    query = select(WebBotToken).where(WebBotToken.owner_id == owner.id).order_by(WebBotToken.created_at)
    return list(session.scalars(query))


def revoke(session: Session, owner: WebPlayer, token_id: str) -> None:
    """The token no longer works; revoking it again changes nothing."""
    row = session.get(WebBotToken, token_id)
    if row is None or row.owner_id != owner.id:
        raise NotFound.said("error.no_bot_token")
    if row.revoked:
        return
    row.revoked = True
    bot = session.get(WebPlayer, row.bot_id)
    assert bot is not None
    bot.token_hash = token_hash(new_token())  # nobody holds this one


def bot_of(session: Session, token: str) -> WebPlayer | None:
    """The bot a live token plays as; None for anything else (made up, revoked, a person's device)."""
    if not valid_token(token):
        return None
    return session.scalar(select(WebPlayer).where(WebPlayer.token_hash == token_hash(token), WebPlayer.bot))


def bot_ids(session: Session, ids: list[str]) -> set[str]:
    """Which of these players are bots."""
    return set(session.scalars(select(WebPlayer.id).where(WebPlayer.id.in_(ids), WebPlayer.bot))) if ids else set()
