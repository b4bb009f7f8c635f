"""The tables of finished games, as plain SQLAlchemy 2 declarative models.

Portable types only (integers, strings, dates, booleans, text), so that the same models serve SQLite on a
player's machine and PostgreSQL behind the web service; constraints carry names so that Alembic
migrations can refer to them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import CheckConstraint, Date, DateTime, ForeignKey, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = ["NAME_LENGTH", "Base", "GameResult", "RollCount"]

NAME_LENGTH = 200  # longest player or opponent name stored

# Named constraints and indexes: migrations can then alter or drop them by name on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def _now() -> datetime:
    return datetime.now(UTC)


class GameResult(Base):
    """One finished game seen from one player's seat: what statistics and records are made of."""

    __tablename__ = "game_results"
    __table_args__ = (
        # The first attempt of a day is the official one: at most one official result per day and owner.
        UniqueConstraint("owner", "official_day", name="uq_game_results_owner_official_day"),
        CheckConstraint("official_day IS NULL OR official_day = day", name="official_day_is_day"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Whose statistics this result belongs to: "" for this machine's own player (the terminal), a web
    # player's id for games played through ``hotdice serve``, where many people share one database.
    owner: Mapped[str] = mapped_column(String(64), default="", server_default="", index=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    mode: Mapped[str] = mapped_column(String(16), index=True)
    rules: Mapped[str] = mapped_column(Text)  # the rules string, e.g. "farkle,entry=500"
    player: Mapped[int]  # the seat of the player this result belongs to
    player_name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    players: Mapped[int]  # how many sat at the table; a game alone has nobody to beat
    opponent: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    score: Mapped[int]
    won: Mapped[bool]  # among the winners (a shared win is a win)
    termination: Mapped[str] = mapped_column(String(16))
    turn_limit: Mapped[int | None]
    turns: Mapped[int]  # turns the player started, including one ended by five 1s
    best_bank: Mapped[int]  # largest single bank, 0 if none
    hot_dice: Mapped[int]
    farkles: Mapped[int]
    # Runs of the player's turns without a farkle: before the first farkle, the longest, after the last one
    # (all three equal `turns` in a game without a farkle). Runs continue from one game to the next.
    farkle_free_first: Mapped[int]
    farkle_free_best: Mapped[int]
    farkle_free_last: Mapped[int]
    day: Mapped[date | None] = mapped_column(Date)  # the day of a daily game (UTC)
    official: Mapped[bool]  # False: the dice were known beforehand (a later attempt at a daily)
    official_day: Mapped[date | None] = mapped_column(Date)  # = day for the official daily attempt only
    record: Mapped[str | None] = mapped_column(Text)  # the game record as JSON, for replays

    rolls: Mapped[list[RollCount]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="RollCount.dice"
    )


class RollCount(Base):
    """How many rolls of ``dice`` dice the player made in one game, and how many were farkles."""

    __tablename__ = "roll_counts"

    game_id: Mapped[int] = mapped_column(ForeignKey("game_results.id", ondelete="CASCADE"), primary_key=True)
    dice: Mapped[int] = mapped_column(primary_key=True)
    rolls: Mapped[int]
    farkles: Mapped[int]

    game: Mapped[GameResult] = relationship(back_populates="rolls")
