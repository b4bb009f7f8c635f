"""The tables of ``hotdice serve``: players without accounts, games in progress, dailies, challenges, tables.

A game is stored as its record (rules, players, first player, seed and history: :mod:`hotdice.game.record`);
rebuilding it is :func:`hotdice.game.record.replay`. Its ``action`` column is the length of that history, the
game's action number: an update is written only if the action number is still the one it was read with,
so a repeated, stale or concurrent action changes nothing, whichever process receives it.

Same portable types and named constraints as :mod:`hotdice.store.models`, in the same metadata, so that
one database (and later one set of migrations) holds statistics and web games alike.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, DateTime, ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from hotdice.store.models import NAME_LENGTH, Base, _now

__all__ = [
    "WebBotToken", "WebChallenge", "WebChallengeSeen", "WebDailyPar", "WebDevice", "WebGame", "WebLink", "WebPlayer",
    "WebSecret", "WebTable", "WebTableSeat",
]

ID_LENGTH = 32  # ids are random: 16 bytes in hex, or shorter url-safe tokens


class WebPlayer(Base):
    """Someone without an account: a display name, played from one or more devices (:class:`WebDevice`)."""

    __tablename__ = "web_players"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    # SHA-256 of the token of the device that made the player: a bot's token (the only way to it); a person is
    # known by their devices (WebDevice), this one among them while it is not signed out.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    rules: Mapped[str] = mapped_column(Text, default="farkle")  # the house rules of their own games
    # A program playing through a bot token (WebBotToken): its token's hash is its token_hash.
    bot: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class WebDevice(Base):
    """A browser a person plays from: the hash of its cookie's token. A player's first device is made with the
    player; a link code (:class:`WebLink`) adds another. Signed out, its token names nobody, for good."""

    __tablename__ = "web_devices"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)  # shown in the device list
    player_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the cookie's token
    agent: Mapped[str] = mapped_column(Text, default="")  # its User-Agent, as last seen (shown as its browser)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)  # first seen
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)  # last seen (to the hour)
    # Indexed: every process polls the latest sign-out (SQLite) to forget the players it knew by device.
    signed_out_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)


class WebLink(Base):
    """A one-time link code a player made to use another device: only its hash is kept, it expires, and its
    first claim uses it up."""

    __tablename__ = "web_links"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 of the code
    player_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"), index=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("web_devices.id"))  # the device that made it
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    claimed_by: Mapped[str | None] = mapped_column(ForeignKey("web_devices.id"))  # the device it added


class WebBotToken(Base):
    """A bot token a player made: the bot it plays as (a player of its own, ``bot`` set), shown once; revoking it
    gives that bot a new random token hash, so the token no longer names anyone."""

    __tablename__ = "web_bot_tokens"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"), index=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    revoked: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class WebGame(Base):
    """One game played through the web, finished or not."""

    __tablename__ = "web_games"
    __table_args__ = (
        # One official daily attempt per player and day; one attempt per player and challenge.
        UniqueConstraint("owner_id", "official_day", name="uq_web_games_owner_official_day"),
        UniqueConstraint("owner_id", "challenge_code", name="uq_web_games_owner_challenge"),
        # "Your games": a player's finished games, the latest first, read from the index alone.
        Index("ix_web_games_owner_over_updated", "owner_id", "over", "updated_at"),
    )

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))  # a hotdice.play.modes.Mode value, or "online"
    owner_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"))  # who created it (indexed above)
    record: Mapped[str] = mapped_column(Text)  # the record as JSON; holds the seed: never sent as such
    action: Mapped[int] = mapped_column()  # the action number: length of the record's history
    # Per seat, as hotdice.web.services.games.StoredSeat writes it: {"kind": "human", "player": id} (id None: the
    # owner's device) or {"kind": "computer", "spec": "hard", "level": "hard"}.
    seats: Mapped[str] = mapped_column(Text)
    extra: Mapped[str] = mapped_column(Text, default="{}")  # what the mode adds: the roll-off, ...
    over: Mapped[bool] = mapped_column(default=False)
    score: Mapped[int] = mapped_column(default=0)  # the first seat's score: leaderboards of one-player modes
    turns: Mapped[int] = mapped_column(default=0)  # the first seat's turns played
    day: Mapped[date | None] = mapped_column(Date, index=True)  # a daily's UTC day
    official: Mapped[bool] = mapped_column(default=True)  # False: a later attempt at a daily
    official_day: Mapped[date | None] = mapped_column(Date)  # = day for the official daily attempt only
    challenge_code: Mapped[str | None] = mapped_column(ForeignKey("web_challenges.code"), index=True)
    table_code: Mapped[str | None] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)

    # Optimistic concurrency on the action number: an UPDATE is written "WHERE action = <the number read>",
    # and the writer sets the new number itself.
    __mapper_args__ = {"version_id_col": action, "version_id_generator": False}  # noqa: RUF012


class WebChallenge(Base):
    """A friend challenge: its code, and the key of its dice, revealed once it closes."""

    __tablename__ = "web_challenges"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)  # XXXXX-XXXXX (hotdice.play.modes.Challenge)
    preset: Mapped[str] = mapped_column(String(32))
    dice_key: Mapped[str] = mapped_column(String(64))  # hex; secret until the challenge closes
    creator_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    closes_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WebChallengeSeen(Base):
    """A friend challenge a player opened: received, and "waiting for you" until they play it or it closes."""

    __tablename__ = "web_challenges_seen"

    challenge_code: Mapped[str] = mapped_column(ForeignKey("web_challenges.code"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"), primary_key=True, index=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class WebTable(Base):
    """An online table: a host, the rules, the people seated, and the game once it starts."""

    __tablename__ = "web_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"))
    rules: Mapped[str] = mapped_column(Text)
    roll_off: Mapped[bool] = mapped_column(default=False)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("web_games.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class WebTableSeat(Base):
    """One person seated at an online table, in the order they joined."""

    __tablename__ = "web_table_seats"
    __table_args__ = (
        UniqueConstraint("table_code", "player_id", name="uq_web_table_seats_player"),
        UniqueConstraint("table_code", "name", name="uq_web_table_seats_name"),
    )

    table_code: Mapped[str] = mapped_column(ForeignKey("web_tables.code", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("web_players.id"), index=True)  # "your games": their seats
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))


class WebDailyPar(Base):
    """The computer's score on a day's daily dice, computed once somebody has finished that day."""

    __tablename__ = "web_daily_pars"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    player: Mapped[str] = mapped_column(String(32))  # the computer player's spec
    score: Mapped[int]


class WebSecret(Base):
    """Keys the server makes for itself on first start (the daily key when HOTDICE_DAILY_KEY is not set)."""

    __tablename__ = "web_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))  # hex
