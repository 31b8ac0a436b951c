"""The club tests use the server tests' databases (SQLite files, a real PostgreSQL)."""

from __future__ import annotations

from server.conftest import database_url, postgres_server, postgres_url, sqlite_url

__all__ = ["database_url", "postgres_server", "postgres_url", "sqlite_url"]
