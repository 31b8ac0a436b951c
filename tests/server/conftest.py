"""Fixtures of the server tests: databases, SQLite files and a real PostgreSQL.

PostgreSQL is found, in order: ``GUTS_TEST_POSTGRES_URL``; a server answering on
127.0.0.1:5432 (database ``test``, user root or postgres, trust authentication); one
started with the ``pgserver`` package. Each test gets a fresh database of its own,
dropped afterwards. When none can be had the PostgreSQL tests fail, saying why: they are
never skipped silently.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared helpers (importlib mode)

LOCAL_CANDIDATES = (
    "postgresql://root@127.0.0.1:5432/test",
    "postgresql://postgres@127.0.0.1:5432/test",
)


async def _answers(url: str) -> str | None:
    import asyncpg

    try:
        connection = await asyncpg.connect(url, timeout=3)
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        return f"{url}: {error}"
    await connection.close()
    return None


def _find_postgres(tmp_root: Path) -> tuple[str, Any]:
    """The URL of a PostgreSQL server to create test databases on, and the pgserver
    handle to stop (None if it was found running)."""
    given = os.environ.get("GUTS_TEST_POSTGRES_URL")
    if given:
        problem = asyncio.run(_answers(given))
        if problem:
            pytest.fail(f"GUTS_TEST_POSTGRES_URL does not answer: {problem}")
        return given, None
    problems = []
    for url in LOCAL_CANDIDATES:
        problem = asyncio.run(_answers(url))
        if problem is None:
            return url, None
        problems.append(problem)
    try:
        import pgserver
    except ImportError:
        pytest.fail(
            "no PostgreSQL for the tests: set GUTS_TEST_POSTGRES_URL, run one on "
            f"127.0.0.1:5432, or install pgserver ({'; '.join(problems)})"
        )
    server = pgserver.get_server(tmp_root / "pgdata", cleanup_mode="stop")
    return server.get_uri(), server


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url, server = _find_postgres(tmp_path_factory.mktemp("postgres"))
    yield url
    if server is not None:
        server.cleanup()


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh PostgreSQL database (a ``postgresql+asyncpg://`` URL), dropped afterwards."""
    from sqlalchemy.engine import make_url

    name = f"guts_test_{secrets.token_hex(6)}"
    asyncio.run(_admin(postgres_server, f'CREATE DATABASE "{name}"'))
    base = make_url(postgres_server)
    yield base.set(drivername="postgresql+asyncpg", database=name).render_as_string(
        hide_password=False
    )
    asyncio.run(_admin(postgres_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite+aiosqlite:///{tmp_path / 'guts.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test with it runs on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One real ``guts serve`` per test process (SQLite in a file) for the tests that only
    need a server: each opens tables of its own and none stops it (a server's start-up
    takes a second or two of a core); killed at the end, whatever happened."""
    from server_helpers import Server

    with Server.running(tmp_path_factory.mktemp("shared-server")) as running:
        yield running
