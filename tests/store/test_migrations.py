"""The schema comes from the Alembic history: migrated databases equal the models on SQLite and PostgreSQL,
files made before migrations are upgraded in place with every row, and processes starting at once on one
database all come up on the head revision."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import column, create_engine, insert, inspect, select, table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

import hotdice.store.web_models  # noqa: F401  (the web tables are part of the metadata compared)
from hotdice.store import Base, GameResult, RollCount, Store
from hotdice.store.migrate import _migration_engine, config, current, engine_url, head, upgrade
from hotdice.store.web_models import WebDevice, WebPlayer
from hotdice.web.db import Database
from hotdice.web.services import players

# The statistics file as the first release wrote it (SQLAlchemy's DDL of its models): no owner column, one
# official result per day.
FIRST_RELEASE = """
CREATE TABLE game_results (
    id INTEGER NOT NULL, recorded_at DATETIME NOT NULL, mode VARCHAR(16) NOT NULL, rules TEXT NOT NULL,
    player INTEGER NOT NULL, player_name VARCHAR(200) NOT NULL, players INTEGER NOT NULL, opponent VARCHAR(200),
    score INTEGER NOT NULL, won BOOLEAN NOT NULL, termination VARCHAR(16) NOT NULL, turn_limit INTEGER,
    turns INTEGER NOT NULL, best_bank INTEGER NOT NULL, hot_dice INTEGER NOT NULL, farkles INTEGER NOT NULL,
    farkle_free_first INTEGER NOT NULL, farkle_free_best INTEGER NOT NULL, farkle_free_last INTEGER NOT NULL,
    day DATE, official BOOLEAN NOT NULL, official_day DATE, record TEXT,
    CONSTRAINT pk_game_results PRIMARY KEY (id),
    CONSTRAINT uq_game_results_official_day UNIQUE (official_day),
    CONSTRAINT ck_game_results_official_day_is_day CHECK (official_day IS NULL OR official_day = day)
);
CREATE INDEX ix_game_results_mode ON game_results (mode);
CREATE TABLE roll_counts (
    game_id INTEGER NOT NULL, dice INTEGER NOT NULL, rolls INTEGER NOT NULL, farkles INTEGER NOT NULL,
    CONSTRAINT pk_roll_counts PRIMARY KEY (game_id, dice),
    CONSTRAINT fk_roll_counts_game_id_game_results FOREIGN KEY(game_id) REFERENCES game_results (id) ON DELETE CASCADE
);
"""
RESULT_COLUMNS = (
    "id, recorded_at, mode, rules, player, player_name, players, opponent, score, won, termination, turn_limit, "
    "turns, best_bank, hot_dice, farkles, farkle_free_first, farkle_free_best, farkle_free_last, day, official, "
    "official_day, record"
)
OLD_RESULTS = [
    (1, "2026-01-02 10:00:00.000000", "solo", "farkle", 0, "Ann", 1, None, 10350, 1, "target", None,
     14, 1500, 2, 3, 4, 5, 2, None, 1, None, '{"history": []}'),
    (2, "2026-01-03 11:30:00.000000", "daily", "farkle,turn_limit=10", 0, "Ann", 1, None, 4200, 0, "turn_limit", 10,
     10, 900, 1, 4, 1, 3, 0, "2026-01-03", 1, "2026-01-03", None),
    (3, "2026-01-03 12:00:00.000000", "daily", "farkle,turn_limit=10", 0, "Ann", 1, None, 5100, 0, "turn_limit", 10,
     10, 1200, 0, 2, 5, 5, 3, "2026-01-03", 0, None, None),
    (4, "2026-01-04 09:15:00.000000", "versus", "10000", 1, "Ann", 2, "hard", 9650, 0, "target", None,
     21, 2000, 3, 6, 0, 7, 1, None, 1, None, None),
]
OLD_ROLLS = [(1, 6, 14, 1), (1, 3, 5, 2), (2, 6, 10, 1), (2, 1, 2, 2), (3, 6, 10, 0), (4, 6, 21, 3), (4, 2, 4, 1)]


def schema_differences(url: str) -> list[object]:
    engine = create_engine(engine_url(url), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))
    finally:
        engine.dispose()


def revision_of(url: str) -> str | None:
    engine = create_engine(engine_url(url), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return current(connection)
    finally:
        engine.dispose()


def test_a_migrated_database_is_exactly_the_models(database_url: str) -> None:
    Database(database_url).close()
    assert revision_of(database_url) == head()
    assert schema_differences(database_url) == []


def test_the_models_differ_from_a_database_one_revision_behind(database_url: str) -> None:
    """The comparison above can fail: stopping before the web tables leaves them all reported missing."""
    engine = _migration_engine(database_url)
    with engine.begin() as connection:
        command.upgrade(config(connection), "0002")
    engine.dispose()
    missing = {diff[1].name for diff in schema_differences(database_url) if diff[0] == "add_table"}  # type: ignore[index]
    assert missing == {table for table in Base.metadata.tables if table.startswith("web_")}


def test_every_revision_downgrades_and_upgrades_again(database_url: str) -> None:
    upgrade(database_url)
    engine = _migration_engine(database_url)
    with engine.begin() as connection:
        command.downgrade(config(connection), "base")
        assert set(inspect(connection).get_table_names()) == {"alembic_version"}
    engine.dispose()
    upgrade(database_url)
    assert schema_differences(database_url) == []


def test_default_names_stored_in_a_language_become_no_name(database_url: str) -> None:
    """Revision 0004: the "Player" and "Joueur" of earlier versions are no name chosen; chosen names stay."""
    engine = _migration_engine(database_url)
    with engine.begin() as connection:
        command.upgrade(config(connection), "0003")
        at = datetime(2026, 11, 30, tzinfo=UTC)
        rows = [{"id": f"p{k}", "token_hash": f"{k:064x}", "name": name, "rules": "farkle", "created_at": at}
                for k, name in enumerate(("Player", "Joueur", "Léa", "Players"))]
        players_0003 = table("web_players", *(column(name) for name in ("id", "token_hash", "name", "rules",
                                                                        "created_at")))
        connection.execute(insert(players_0003), rows)
    engine.dispose()
    upgrade(database_url)
    engine = _migration_engine(database_url)
    with engine.begin() as connection:
        names = connection.execute(select(WebPlayer.name).order_by(WebPlayer.id)).scalars().all()
        assert names == ["", "", "Léa", "Players"]
        command.downgrade(config(connection), "0003")
        assert connection.execute(select(WebPlayer.name).order_by(WebPlayer.id)).scalars().all() == [
            "Player", "Player", "Léa", "Players"]
    engine.dispose()


def test_every_person_keeps_their_device_through_revision_0006(database_url: str) -> None:
    """Revision 0006: a person's cookie token, kept on their player until then, becomes their first device (the
    same token: nobody is signed out by the upgrade); a bot, known by its token, gets no device."""
    engine = _migration_engine(database_url)
    tokens = {name: players.new_token() for name in ("ann", "bob", "bot")}
    at = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    with engine.begin() as connection:
        command.upgrade(config(connection), "0005")
        players_0005 = table("web_players", *(column(name) for name in ("id", "token_hash", "name", "rules", "bot",
                                                                        "created_at")))
        connection.execute(insert(players_0005), [
            {"id": name, "token_hash": players.token_hash(token), "name": name.title(), "rules": "farkle",
             "bot": name == "bot", "created_at": at}
            for name, token in tokens.items()
        ])
    engine.dispose()
    db = Database(database_url)  # upgrades to the head
    with db.session() as session:
        devices = session.execute(select(WebDevice.player_id, WebDevice.token_hash, WebDevice.signed_out_at)).all()
        assert sorted(devices) == [("ann", players.token_hash(tokens["ann"]), None),
                                   ("bob", players.token_hash(tokens["bob"]), None)]
        found = {name: players.find(session, token) for name, token in tokens.items()}
        assert {name: player.id if player else None for name, player in found.items()} == {
            "ann": "ann", "bob": "bob", "bot": "bot"}
    db.close()
    assert revision_of(database_url) == head()


def first_release_file(path: Path) -> str:
    """A statistics file as the first release left it: WAL, its tables, games and roll counts."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.executescript(FIRST_RELEASE)
    connection.executemany(f"INSERT INTO game_results ({RESULT_COLUMNS}) VALUES ({', '.join('?' * 23)})", OLD_RESULTS)
    connection.executemany("INSERT INTO roll_counts VALUES (?, ?, ?, ?)", OLD_ROLLS)
    connection.commit()
    connection.close()
    return f"sqlite:///{path}"


def test_a_statistics_file_from_before_migrations_is_upgraded_in_place_with_every_row(tmp_path: Path) -> None:
    url = first_release_file(tmp_path / "hotdice.sqlite3")
    with Store(url) as store, store.session() as session:
        games = session.scalars(select(GameResult).order_by(GameResult.id)).all()
        rolls = session.execute(select(RollCount.game_id, RollCount.dice, RollCount.rolls, RollCount.farkles)).all()
        read = [
            (g.id, g.recorded_at.strftime("%Y-%m-%d %H:%M:%S.%f"), g.mode, g.rules, g.player, g.player_name, g.players,
             g.opponent, g.score, int(g.won), g.termination, g.turn_limit, g.turns, g.best_bank, g.hot_dice, g.farkles,
             g.farkle_free_first, g.farkle_free_best, g.farkle_free_last, g.day and g.day.isoformat(), int(g.official),
             g.official_day and g.official_day.isoformat(), g.record)
            for g in games
        ]  # fmt: skip
        owners = [g.owner for g in games]
        # The official daily is now unique per owner and day, and the check on days still holds.
        session.add(_copy(session.get_one(GameResult, 2), owner="web-player-1"))
        session.commit()
        for refused in (
            _copy(session.get_one(GameResult, 2), owner=""),
            _copy(session.get_one(GameResult, 4), day=date(2026, 1, 5), official_day=date(2026, 1, 6)),
        ):
            session.add(refused)
            with pytest.raises(IntegrityError):
                session.commit()
            session.rollback()
    assert revision_of(url) == head()
    assert schema_differences(url) == []
    assert read == OLD_RESULTS
    assert owners == [""] * len(OLD_RESULTS)
    assert sorted(rolls) == sorted(OLD_ROLLS)


def _copy(game: GameResult, **changes: object) -> GameResult:
    fields = {c.key: getattr(game, c.key) for c in GameResult.__mapper__.column_attrs if c.key != "id"}
    return GameResult(**(fields | changes))


@pytest.mark.parametrize("with_web_tables", [False, True], ids=["terminal", "web"])
def test_databases_made_from_the_models_before_migrations_keep_their_rows(
    database_url: str, with_web_tables: bool
) -> None:
    """Before migrations the models were created as they stood: statistics only (the terminal), or all."""
    engine = create_engine(engine_url(database_url), poolclass=NullPool)
    tables = None if with_web_tables else [Base.metadata.tables["game_results"], Base.metadata.tables["roll_counts"]]
    Base.metadata.create_all(engine, tables=tables)
    made = datetime(2026, 2, 1, 8, 0, tzinfo=UTC)
    with engine.begin() as connection:
        connection.execute(insert(GameResult), [_plain_result(owner="") | {"recorded_at": made}])
        if with_web_tables:
            connection.execute(
                insert(WebPlayer),
                [{"id": "p1", "token_hash": "ab" * 32, "name": "Ann", "rules": "farkle", "created_at": made}],
            )
    engine.dispose()
    db = Database(database_url)
    with db.session() as session:
        assert [(g.player_name, g.score, g.owner) for g in session.scalars(select(GameResult))] == [("Ann", 777, "")]
        if with_web_tables:
            assert [p.name for p in session.scalars(select(WebPlayer))] == ["Ann"]
    db.close()
    assert revision_of(database_url) == head()
    assert schema_differences(database_url) == []


def _plain_result(owner: str) -> dict[str, object]:
    counts = dict.fromkeys(("turns", "best_bank", "hot_dice", "farkles", "player"), 0)
    runs = dict.fromkeys(("farkle_free_first", "farkle_free_best", "farkle_free_last"), 0)
    return {
        "owner": owner, "mode": "solo", "rules": "farkle", "player_name": "Ann", "players": 1, "score": 777,
        "won": False, "termination": "target", "official": True, **counts, **runs,
    }  # fmt: skip


STARTERS = 3
# Each starter loads the code, says so, and opens the database (as ``hotdice serve`` does) once told to go.
STARTER = """
import sys
from hotdice.store import Store
print("ready", flush=True)
sys.stdin.readline()
Store(sys.argv[1]).close()
"""


@pytest.mark.slow
def test_processes_starting_together_on_one_database_all_come_up_on_the_head(database_url: str) -> None:
    """All start the upgrade of an empty database at the same moment; it happens once, under the lock."""
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, database_url],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for _ in range(STARTERS)
    ]  # fmt: skip
    for starter in starters:
        assert starter.stdout is not None and starter.stdout.readline() == "ready\n"
    for starter in starters:
        assert starter.stdin is not None
        starter.stdin.write("go\n")
        starter.stdin.flush()
    errors = [starter.communicate(timeout=120)[1] for starter in starters]
    assert [starter.returncode for starter in starters] == [0] * STARTERS, errors
    assert revision_of(database_url) == head()
    assert schema_differences(database_url) == []


def test_plain_postgresql_urls_use_the_driver_the_package_installs() -> None:
    assert engine_url("postgresql://postgres@127.0.0.1/test").drivername == "postgresql+psycopg"
    assert engine_url("postgres://u:p@db/hotdice").drivername == "postgresql+psycopg"
    assert engine_url("sqlite:////tmp/x.sqlite3").drivername == "sqlite"

