"""The database: the migrations make the schema the code expects, a command and the rows
it changes are written together or not at all, and ``(table, seq)`` is unique."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.runtime.environment import EnvironmentContext
from alembic.script import ScriptDirectory

from guts.errors import GutsError
from guts.server.storage import (
    ACTIONS,
    METADATA,
    MIGRATIONS,
    ROWS_A_STATEMENT,
    ActionRow,
    SeatRow,
    Storage,
    StorageConflict,
    TableRow,
    database_url,
    driver_url,
)


def table_row(table_id: str = "t1", status: str = "lobby") -> TableRow:
    return TableRow(
        table_id, "two-card-guts", {"ante": "2"}, {"buy_in": 50}, False, "h" * 64, status
    )


def test_migrations_make_the_schema_of_the_models(database_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(database_url)
        await storage.close()
        storage = await Storage.open(database_url)  # migrating again changes nothing
        diff = await storage.run(
            lambda connection: compare_metadata(MigrationContext.configure(connection), METADATA)
        )
        await storage.close()
        assert diff == []

    asyncio.run(run())


def test_a_payload_comes_back_exactly_as_stored(database_url: str) -> None:
    """Integers beyond 64 bits (a recorded draw of many random bits) and floats come back
    equal: rows are written compactly, read back by the json module."""
    payload = {"kind": "deal", "draws": [{"bits": 80, "value": 2**79 + 12345},
                                         {"random": 0.1 + 0.2}, {"shuffle": [2, 0, 1]}],
               "text": "Jo \u00e9 \U0001f0a1"}  # fmt: skip

    async def run() -> None:
        storage = await Storage.open(database_url)
        await storage.create_table(table_row())
        await storage.append("t1", ActionRow(1, "deal", payload))
        stored = await storage.load("t1")
        await storage.close()
        assert stored is not None
        assert stored.actions[0].payload == payload

    asyncio.run(run())


def test_commands_are_stored_in_order_with_their_seats(database_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(database_url)
        await storage.create_table(table_row())
        seat = SeatRow(0, "Jo", "person", "a" * 64, 50, "requested")
        await storage.append(
            "t1", ActionRow(1, "join", {"kind": "join", "n": [1, 2]}), seats=[seat]
        )
        approved = SeatRow(0, "Jo", "person", "a" * 64, 40, "approved", 0)
        await storage.append(
            "t1", ActionRow(2, "approve", {"kind": "approve"}), seats=[approved], status="playing"
        )
        stored = await storage.load("t1")
        assert stored is not None
        assert [a.seq for a in stored.actions] == [1, 2]
        assert stored.actions[0].payload == {"kind": "join", "n": [1, 2]}
        assert stored.seats == (approved,)
        assert stored.table.status == "playing"
        assert stored.table.options == {"ante": "2"} and stored.table.stakes == {"buy_in": 50}
        assert await storage.table_ids() == ["t1"]
        assert await storage.load("nope") is None
        await storage.close()

    asyncio.run(run())


def test_a_taken_sequence_number_is_a_conflict_and_writes_nothing(database_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(database_url)
        await storage.create_table(table_row())
        await storage.append("t1", ActionRow(1, "join", {"a": 1}))
        seat = SeatRow(0, "Jo", "person", None, 50, "approved")
        with pytest.raises(StorageConflict):
            await storage.append("t1", ActionRow(1, "join", {"a": 2}), seats=[seat], status="over")
        stored = await storage.load("t1")
        assert stored is not None
        assert stored.actions == (ActionRow(1, "join", {"a": 1}),)
        assert stored.seats == () and stored.table.status == "lobby"  # all or nothing
        await storage.close()

    asyncio.run(run())


def test_commands_waiting_together_are_committed_together_each_with_its_answer(
    database_url: str,
) -> None:
    """A group commit: the commands of many tables that wait together go in as few
    statements (more rows than one SQLite statement takes, here), read back as written,
    times included; a taken sequence number among them fails that one command alone, and
    every other one is stored, in order."""
    count = ROWS_A_STATEMENT * 2 + 7

    async def run() -> None:
        storage = await Storage.open(database_url)
        for name in ("a", "b"):
            await storage.create_table(table_row(name))
        began = datetime.now(UTC)
        await asyncio.gather(*(
            storage.append("a", ActionRow(seq, "act", {"seq": seq, "draws": [[seq, 2**70]]}))
            for seq in range(1, count + 1)
        ))  # fmt: skip
        answers = await asyncio.gather(
            storage.append("b", ActionRow(1, "join", {"first": True})),
            storage.append("a", ActionRow(count, "act", {"again": True})),
            storage.append("b", ActionRow(2, "act", {"second": True})),
            return_exceptions=True,
        )
        a, b = await storage.load("a"), await storage.load("b")
        times = await storage.run(
            lambda connection: connection.execute(sa.select(ACTIONS.c.created_at)).scalars().all()
        )
        await storage.close()
        assert answers[0] is None and answers[2] is None
        assert isinstance(answers[1], StorageConflict)
        assert a is not None and b is not None
        assert [action.seq for action in a.actions] == list(range(1, count + 1))
        assert a.actions[-1].payload == {"seq": count, "draws": [[count, 2**70]]}
        assert b.actions == (ActionRow(1, "join", {"first": True}),
                             ActionRow(2, "act", {"second": True}))  # fmt: skip
        assert len(times) == count + 2
        for when in times:  # SQLite keeps no zone: the server writes UTC
            when = when if when.tzinfo else when.replace(tzinfo=UTC)
            assert abs((when - began).total_seconds()) < 600

    asyncio.run(run())


def test_only_open_tables_are_listed_for_rebuilding(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        for name, status in (("a", "lobby"), ("b", "playing"), ("c", "over")):
            await storage.create_table(table_row(name, status))
        assert sorted(await storage.table_ids()) == ["a", "b"]
        assert await storage.table_ids(("over",)) == ["c"]
        await storage.close()

    asyncio.run(run())


def test_database_urls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert driver_url("postgres://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert driver_url("postgresql+asyncpg://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert driver_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert driver_url("sqlite+aiosqlite:///x.db") == "sqlite+pysqlite:///x.db"
    with pytest.raises(GutsError, match="not a database URL"):
        driver_url("guts.db")
    monkeypatch.setenv("GUTS_DATABASE_URL", "sqlite:///x.db")
    assert database_url() == "sqlite+pysqlite:///x.db"
    assert database_url("postgresql://h/d") == "postgresql+asyncpg://h/d"
    monkeypatch.delenv("GUTS_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    default = database_url()
    assert default.startswith("sqlite+pysqlite:///") and default.endswith("guts.sqlite3")
    assert Path(default.removeprefix("sqlite+pysqlite:///")).parent.is_dir()


def _migrate_to(connection: sa.Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)

    def upgrade(current: Any, context: MigrationContext) -> Any:
        return script._upgrade_revs(revision, current)

    with EnvironmentContext(config, script, fn=upgrade, destination_rev=revision) as env:
        env.configure(connection=connection, target_metadata=METADATA)
        with env.begin_transaction():
            env.run_migrations()


def test_nights_stored_before_deal_after_game_keep_the_deal_they_were_played_with(
    tmp_path: Path,
) -> None:
    """A night stored by an older server rebuilds from its commands with the deal going on
    from game to game, as it was played; a night stored now keeps its own option."""
    path = tmp_path / "old.sqlite3"
    engine = sa.create_engine(f"sqlite+pysqlite:///{path}")
    with engine.begin() as connection:
        _migrate_to(connection, "0003_leases")
        stored = {"old-night": ("dealers-choice", {"cap": "4"}),
                  "new-night": ("dealers-choice", {"deal-after-game": "passes"}),
                  "guts": ("two-card-guts", {"ante": "2"})}  # fmt: skip
        for table_id, (preset, options) in stored.items():
            row = table_row(table_id)
            connection.execute(sa.text(
                "INSERT INTO tables (id, preset, options, stakes, auto_approve, "
                "host_secret_hash, status, created_at, updated_at) VALUES (:id, :preset, "
                ":options, '{}', 0, :hash, 'lobby', :at, :at)"
            ), {"id": table_id, "preset": preset, "options": json.dumps(options),
                "hash": row.host_secret_hash, "at": datetime.now(UTC)})  # fmt: skip
    engine.dispose()

    async def options() -> dict[str, Any]:
        storage = await Storage.open(f"sqlite:///{path}")
        rows = await storage.run(
            lambda connection: connection.execute(sa.text("SELECT id, options FROM tables")).all()
        )
        await storage.close()
        return {table_id: json.loads(text) for table_id, text in rows}

    assert asyncio.run(options()) == {
        "old-night": {"cap": "4", "deal-after-game": "continues"},
        "new-night": {"deal-after-game": "passes"},
        "guts": {"ante": "2"},
    }
