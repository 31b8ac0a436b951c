"""The club tests use the server tests' databases (SQLite files, a real PostgreSQL)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # club_helpers (importlib mode)

from server.conftest import database_url, postgres_server, postgres_url, sqlite_url

__all__ = ["database_url", "postgres_server", "postgres_url", "sqlite_url"]
