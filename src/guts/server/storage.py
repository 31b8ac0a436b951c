"""The database: tables, their seats, and the append-only actions that are their record.

A table's truth is its ``actions``: every accepted command (a seat asked for or given, a
bot seated, a deal started with the server's shuffles, an action, a host command), keyed
``(table_id, seq)`` with the primary key as the uniqueness constraint, never updated or
deleted. The ``tables`` and ``seats`` rows are what the HTTP routes and the lookups need
(a table's preset, stakes and host secret hash; a seat's nickname and device token hash);
a command and the rows it changes are written in one transaction
(:meth:`Storage.append`).

SQLite (a file in the user data directory) is the default, run on a thread of its own
through the standard library's driver; PostgreSQL is taken with a
``postgresql+asyncpg://`` URL. A plain ``postgresql://`` URL gets the async driver, and
any ``sqlite`` URL the standard one:

>>> driver_url("postgresql://me@db/guts"), driver_url("sqlite+aiosqlite:////tmp/g.db")
('postgresql+asyncpg://me@db/guts', 'sqlite+pysqlite:////tmp/g.db')

The schema is created and upgraded by the Alembic migrations shipped in
``guts/server/migrations/versions`` (:func:`migrate`, run by :meth:`Storage.open`).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TypeVar

import orjson
import sqlalchemy as sa
from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from guts.errors import GutsError

__all__ = [
    "EXPIRED",
    "METADATA",
    "OPEN_STATUSES",
    "ActionRow",
    "SeatRow",
    "Storage",
    "StorageConflict",
    "StoredTable",
    "TableRow",
    "database_url",
    "driver_url",
    "json_text",
    "migrate",
]

MIGRATIONS = Path(__file__).with_name("migrations")
OPEN_STATUSES = ("lobby", "playing")
"""The statuses of a table that the server rebuilds at startup."""
EXPIRED = "expired"
"""The status of a table that expired with no person seated (see
:meth:`Storage.expire_idle`): kept, never rebuilt or served again."""

T = TypeVar("T")

METADATA = sa.MetaData()

TABLES = sa.Table(
    "tables",
    METADATA,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON(), nullable=False),
    sa.Column("stakes", sa.JSON(), nullable=False),
    sa.Column("auto_approve", sa.Boolean(), nullable=False),
    sa.Column("host_secret_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_tables_status", "status"),
)

SEATS = sa.Table(
    "seats",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat_id", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("nickname", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("buy_in", sa.Integer(), nullable=False),
    sa.Column("seat_number", sa.Integer(), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

ACTIONS = sa.Table(
    "actions",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

LEASES = sa.Table(
    "leases",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("generation", sa.Integer(), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_leases_owner", "owner"),
)
"""Which node owns each table when several share the database (:mod:`guts.server.lease`)."""


# -- clubs (guts.club; read and written by guts.server.club_store) ------------------------
CLUBS = sa.Table(
    "clubs",
    METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("failures", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
CLUB_TABLES = sa.Table(
    "club_tables",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_club_tables_club", "club_id"),
)
CLUB_MEMBERS = sa.Table(
    "club_members",
    METADATA,
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
    sa.Column("member_id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("since", sa.DateTime(timezone=True), nullable=True),
)
CLUB_DEVICES = sa.Table(
    "club_devices",
    METADATA,
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
    sa.Column("device_hash", sa.String(64), primary_key=True),
    sa.Column("member_id", sa.String(32), nullable=False),
)
CLUB_SEATS = sa.Table(
    "club_seats",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat_id", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("member_id", sa.String(32), nullable=False),
    sa.Index("ix_club_seats_club", "club_id"),
)
CLUB_CODES = sa.Table(
    "club_codes",
    METADATA,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("member_id", sa.String(32), nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_club_codes_club", "club_id"),
)
CLUB_NIGHTS = sa.Table(
    "club_nights",
    METADATA,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("summary", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


class StorageConflict(GutsError):
    """A command whose ``(table_id, seq)`` is already taken: another writer got there
    first, so the writer's picture of the table is stale."""


@dataclass(frozen=True)
class TableRow:
    """One table: its game, stakes, host and status."""

    id: str
    preset: str
    options: Mapping[str, str]
    stakes: Mapping[str, int]
    auto_approve: bool
    host_secret_hash: str
    status: str = "lobby"
    created_at: datetime | None = None


@dataclass(frozen=True)
class SeatRow:
    """A seat asked for (or a bot seated): who, how identified, and where it stands."""

    seat_id: int
    nickname: str
    kind: str
    token_hash: str | None
    buy_in: int
    status: str
    seat_number: int | None = None


@dataclass(frozen=True)
class ActionRow:
    """One accepted command of a table."""

    seq: int
    kind: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class StoredTable:
    """Everything stored about one table."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]


def database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``GUTS_DATABASE_URL``, else a SQLite file in
    the user data directory (its folder created if need be), with its driver
    (:func:`driver_url`)."""
    url = url or os.environ.get("GUTS_DATABASE_URL")
    if not url:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("guts", appauthor=False))
        folder.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{folder / 'guts.sqlite3'}"
    return driver_url(url)


def driver_url(url: str) -> str:
    """``url`` with the driver the storage uses: asyncpg for PostgreSQL if it names no
    other, the standard library's for SQLite (whatever it names: the storage runs SQLite
    on a thread of its own)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise GutsError(f"not a database URL: {url!r} (sqlite:///PATH or postgresql://...)")
    if scheme.partition("+")[0] == "sqlite":
        return f"sqlite+pysqlite://{rest}"
    drivers = {"postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
    return f"{drivers.get(scheme, scheme)}://{rest}"


def json_text(value: Any) -> str:
    """``value`` as the JSON a row stores: compact, by orjson (the server writes one
    command a row for every action), or by the json module where orjson refuses (an
    integer beyond 64 bits, as a recorded draw of many random bits can be); read back
    by the json module either way, so such an integer stays exact.

    >>> json_text({"seq": 3, "value": 2**70})
    '{"seq": 3, "value": 1180591620717411303424}'
    >>> json_text({"seq": 3, "draws": [[2, 0, 1]]})
    '{"seq":3,"draws":[[2,0,1]]}'
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value)


def _now() -> datetime:
    return datetime.now(UTC)


def migrate(connection: Connection) -> None:
    """Bring the schema on ``connection`` up to the newest migration (Alembic's upgrade
    to head, without an ``env.py``); on PostgreSQL under an advisory lock, so servers
    starting together migrate one at a time."""
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(7426012)"))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)

    def upgrade(revision: Any, context: MigrationContext) -> Any:
        return script._upgrade_revs("head", revision)

    with EnvironmentContext(config, script, fn=upgrade, destination_rev="head") as env:
        env.configure(connection=connection, target_metadata=METADATA)
        with env.begin_transaction():
            env.run_migrations()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a committed transaction survives the process being
    # killed (it is in the OS's hands); only a power cut may lose the last ones.
    for pragma in (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "foreign_keys=ON",
        "busy_timeout=10000",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


@dataclass
class _Append:
    """A command waiting to be committed, and its answer."""

    table_id: str
    action: ActionRow
    seats: tuple[SeatRow, ...]
    status: str | None
    done: asyncio.Future[None]
    fence: Callable[[Connection], None] | None = None


class _Database:
    """Where a storage's SQL runs: each piece of work is a plain function of a
    synchronous :class:`~sqlalchemy.engine.Connection`, run in a transaction of its own."""

    url: sa.URL

    async def run(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction, committed unless it raises."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close every connection."""
        raise NotImplementedError


class _SQLiteFile(_Database):
    """SQLite through the standard library's driver, on one thread of its own: a piece of
    work is one hand-off to that thread, however many statements it runs (an async
    driver's thread takes one hand-off per statement, cursor and commit: five for a
    command), and one connection, so SQLite's one writer never waits on its own lock.

    Not on the event loop's thread, though a group commit is a fraction of a
    millisecond of CPU: there every commit, and every checkpoint's wait for the disk,
    stopped every table at once (tried: the benchmark's p99 rose from about 0.2 s to
    0.7-0.8 s on a loaded machine)."""

    def __init__(self, url: sa.URL) -> None:
        self.url = url
        self.engine = sa.create_engine(url, pool_size=1, max_overflow=0, json_serializer=json_text)
        sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="guts-sqlite")

    async def run(self, work: Callable[[Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._transaction, work)

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        with self.engine.begin() as connection:
            return work(connection)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self.engine.dispose)
        self._thread.shutdown()


class _AsyncServer(_Database):
    """A database server (PostgreSQL) through an async driver (asyncpg): the work runs on
    the event loop, each statement awaited where the driver waits for the server."""

    def __init__(self, url: sa.URL) -> None:
        self.url = url
        self.engine = create_async_engine(url, pool_size=10, max_overflow=10,
                                          json_serializer=json_text)  # fmt: skip

    async def run(self, work: Callable[[Connection], T]) -> T:
        async with self.engine.begin() as connection:
            return await connection.run_sync(work)

    async def close(self) -> None:
        await self.engine.dispose()


class Storage:
    """The database of a server: open it with :meth:`open` (which migrates)."""

    def __init__(self, database: _Database) -> None:
        self.database = database
        self._waiting: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str | None = None) -> Storage:
        """Connect to ``url`` (see :func:`database_url`) and migrate the schema."""
        address = sa.engine.make_url(database_url(url))
        database: _Database
        if address.get_backend_name() == "sqlite":
            path = address.database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            database = _SQLiteFile(address)
        else:
            database = _AsyncServer(address)
        await database.run(migrate)
        return cls(database)

    async def close(self) -> None:
        """Close every connection."""
        await self.database.close()

    @property
    def url(self) -> sa.URL:
        """The database's URL."""
        return self.database.url

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.database.url.get_backend_name()

    async def run(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction of the database, committed unless it
        raises (for what the methods here do not: a test's look at the schema)."""
        return await self.database.run(work)

    async def create_table(self, table: TableRow) -> None:
        """Store a new table."""
        now = _now()
        row = {"id": table.id, "preset": table.preset, "options": dict(table.options),
               "stakes": dict(table.stakes), "auto_approve": table.auto_approve,
               "host_secret_hash": table.host_secret_hash, "status": table.status,
               "created_at": now, "updated_at": now}  # fmt: skip
        await self.database.run(lambda connection: connection.execute(TABLES.insert(), row))

    async def append(
        self,
        table_id: str,
        action: ActionRow,
        *,
        seats: Iterable[SeatRow] = (),
        status: str | None = None,
        fence: Callable[[Connection], None] | None = None,
    ) -> None:
        """Commit ``action`` with the seats it adds or changes and the table's new
        ``status``, all or nothing; StorageConflict if its sequence number is taken.
        ``fence`` runs first in the same transaction, and refuses the command by raising
        (the writer's lease on the table: :class:`guts.server.lease.Fence`).

        Commands that wait together are committed together (a group commit: one
        transaction for all the tables' commands that arrived while the last one was
        being written); if that transaction fails, each command is tried alone, so each
        gets its own answer and none is lost with another's."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Append(table_id, action, tuple(seats), status, done, fence))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        await done

    async def _write(self) -> None:
        """Commit what waits, a batch at a time, until nothing does."""
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self.database.run(partial(_commit, batch))
            except Exception:
                for one in batch:
                    try:
                        await self.database.run(partial(_commit, [one]))
                    except IntegrityError as error:
                        one.done.set_exception(StorageConflict(
                            f"table {one.table_id}: command {one.action.seq} is already "
                            f"stored ({error.orig})"))  # fmt: skip
                    except Exception as error:
                        one.done.set_exception(error)
                    else:
                        one.done.set_result(None)
                continue
            for one in batch:
                if not one.done.done():
                    one.done.set_result(None)

    async def table(self, table_id: str) -> TableRow | None:
        """The table called ``table_id``, if there is one."""

        def read(connection: Connection) -> TableRow | None:
            row = connection.execute(TABLES.select().where(TABLES.c.id == table_id)).first()
            return None if row is None else _table_row(row)

        return await self.database.run(read)

    async def load(self, table_id: str) -> StoredTable | None:
        """The table, its seats and its actions in order (None if there is no such table)."""

        def read(connection: Connection) -> StoredTable | None:
            row = connection.execute(TABLES.select().where(TABLES.c.id == table_id)).first()
            if row is None:
                return None
            seats = connection.execute(
                SEATS.select().where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat_id)
            ).all()
            actions = connection.execute(
                ACTIONS.select().where(ACTIONS.c.table_id == table_id).order_by(ACTIONS.c.seq)
            ).all()
            return StoredTable(
                _table_row(row),
                tuple(_seat_row(seat) for seat in seats),
                tuple(ActionRow(a.seq, a.kind, a.payload) for a in actions),
            )

        return await self.database.run(read)

    async def times(self, table_id: str) -> tuple[dict[int, datetime], datetime | None]:
        """When each seat of the table was asked for, and when the table last changed
        status (None if there is no such table)."""

        def read(connection: Connection) -> tuple[dict[int, datetime], datetime | None]:
            seats = connection.execute(
                sa.select(SEATS.c.seat_id, SEATS.c.created_at).where(SEATS.c.table_id == table_id)
            )
            joined = {row.seat_id: row.created_at for row in seats}
            changed = connection.execute(
                sa.select(TABLES.c.updated_at).where(TABLES.c.id == table_id)
            ).scalar()
            return joined, changed

        return await self.database.run(read)

    async def committed_at(self, table_id: str, seqs: Iterable[int]) -> dict[int, datetime]:
        """When each of the table's commands ``seqs`` was committed (those stored)."""
        wanted = sorted(set(seqs))
        if not wanted:
            return {}

        def read(connection: Connection) -> dict[int, datetime]:
            rows = connection.execute(
                sa.select(ACTIONS.c.seq, ACTIONS.c.created_at).where(
                    ACTIONS.c.table_id == table_id, ACTIONS.c.seq.in_(wanted)
                )
            )
            return {row.seq: row.created_at for row in rows}

        return await self.database.run(read)

    async def expire_idle(self, before: datetime) -> list[str]:
        """Mark ``expired`` (never rebuilt again) every open table that no person holds an
        approved seat at and that changed nothing since ``before``; their ids."""

        def write(connection: Connection) -> list[str]:
            seated = sa.exists().where(SEATS.c.table_id == TABLES.c.id, SEATS.c.kind == "person",
                                       SEATS.c.status == "approved")  # fmt: skip
            recent = sa.exists().where(ACTIONS.c.table_id == TABLES.c.id,
                                       ACTIONS.c.created_at >= before)  # fmt: skip
            idle = connection.execute(
                sa.select(TABLES.c.id).where(
                    TABLES.c.status.in_(list(OPEN_STATUSES)), TABLES.c.created_at < before,
                    ~seated, ~recent,
                )
            )  # fmt: skip
            ids = [row.id for row in idle]
            if ids:
                connection.execute(
                    TABLES.update().where(TABLES.c.id.in_(ids))
                    .values(status=EXPIRED, updated_at=_now())
                )  # fmt: skip
            return ids

        return await self.database.run(write)

    async def table_ids(self, statuses: Sequence[str] = OPEN_STATUSES) -> list[str]:
        """The tables whose status is one of ``statuses``, oldest first."""

        def read(connection: Connection) -> list[str]:
            rows = connection.execute(
                sa.select(TABLES.c.id)
                .where(TABLES.c.status.in_(list(statuses)))
                .order_by(TABLES.c.created_at, TABLES.c.id)
            )
            return [row.id for row in rows]

        return await self.database.run(read)


def _commit(batch: Sequence[_Append], connection: Connection) -> None:
    """Write ``batch``'s commands with the seats and statuses they change."""
    now = _now()
    for one in sorted(batch, key=lambda one: one.table_id):  # the leases' lock order
        if one.fence is not None:
            one.fence(connection)
    if connection.dialect.name == "sqlite":
        _insert_rows(batch, connection, now)
    else:
        connection.execute(ACTIONS.insert(), [
            {"table_id": one.table_id, "seq": one.action.seq, "kind": one.action.kind,
             "payload": dict(one.action.payload), "created_at": now}
            for one in batch
        ])  # fmt: skip
    for one in batch:
        for seat in one.seats:
            _put_seat(connection, one.table_id, seat, now)
        if one.status is not None:
            connection.execute(
                TABLES.update()
                .where(TABLES.c.id == one.table_id)
                .values(status=one.status, updated_at=now)
            )


ROWS_A_STATEMENT = 500
"""The most commands one SQLite ``INSERT`` writes (five values each: well below
SQLite's limit of 32,766 bound values)."""


def _insert_rows(batch: Sequence[_Append], connection: Connection, now: datetime) -> None:
    """Insert ``batch``'s commands on SQLite as one multi-row ``INSERT`` statement (one
    per :data:`ROWS_A_STATEMENT`), its text made once per number of rows (and kept
    prepared by the driver, for its last 128). The standard library's driver runs each
    statement with the interpreter lock released, and takes it back after: one statement
    instead of one per row (``executemany``) spares the event loop's thread a hand-over
    of the lock for every row. The values are written as the Core insert writes them
    (the JSON text by :func:`json_text`, the engine's serializer; the time by
    SQLAlchemy's bind processor), so the rows read back alike."""
    dialect = connection.dialect
    stamp = ACTIONS.c.created_at.type.bind_processor(dialect)
    when = stamp(now) if stamp is not None else now
    for start in range(0, len(batch), ROWS_A_STATEMENT):
        part = batch[start : start + ROWS_A_STATEMENT]
        values: list[Any] = []
        for one in part:
            action = one.action
            values += (one.table_id, action.seq, action.kind, json_text(action.payload), when)
        connection.exec_driver_sql(_rows_statement(len(part)), tuple(values))


@lru_cache(maxsize=ROWS_A_STATEMENT)
def _rows_statement(count: int) -> str:
    """The SQLite ``INSERT`` of ``count`` commands' rows (positional parameters)."""
    rows = ", ".join(["(?, ?, ?, ?, ?)"] * count)
    return f"INSERT INTO actions (table_id, seq, kind, payload, created_at) VALUES {rows}"


def _put_seat(connection: Any, table_id: str, seat: SeatRow, now: datetime) -> None:
    values = {
        "nickname": seat.nickname,
        "kind": seat.kind,
        "token_hash": seat.token_hash,
        "buy_in": seat.buy_in,
        "seat_number": seat.seat_number,
        "status": seat.status,
    }
    changed = connection.execute(
        SEATS.update()
        .where(SEATS.c.table_id == table_id, SEATS.c.seat_id == seat.seat_id)
        .values(**values)
    )
    if changed.rowcount == 0:
        connection.execute(
            SEATS.insert().values(table_id=table_id, seat_id=seat.seat_id, created_at=now, **values)
        )


def _table_row(row: Any) -> TableRow:
    return TableRow(
        row.id,
        row.preset,
        dict(row.options),
        dict(row.stakes),
        bool(row.auto_approve),
        row.host_secret_hash,
        row.status,
        row.created_at,
    )


def _seat_row(row: Any) -> SeatRow:
    return SeatRow(
        row.seat_id, row.nickname, row.kind, row.token_hash, row.buy_in, row.status, row.seat_number
    )
