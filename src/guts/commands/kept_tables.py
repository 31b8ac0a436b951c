"""The table ``guts serve --table GAME`` opened last, a database and game each, kept in
the user data directory so that the same command run again reopens it.

>>> import tempfile
>>> kept = KeptTables(Path(tempfile.mkdtemp()) / "tables.json")
>>> kept.get("sqlite+aiosqlite:///guts.sqlite3", "two-card-guts") is None
True
>>> kept.keep("sqlite+aiosqlite:///guts.sqlite3", "two-card-guts", "T1", "s3cret")
>>> kept.get("sqlite+aiosqlite:///guts.sqlite3", "two-card-guts")
('T1', 's3cret')
>>> kept.get("sqlite+aiosqlite:///other.sqlite3", "two-card-guts") is None
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["KeptTables"]


class KeptTables:
    """The JSON file ``path`` (only its owner may read it: it holds host secrets), by
    default ``serve-tables.json`` in the user data directory."""

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            from platformdirs import user_data_dir

            path = Path(user_data_dir("guts", appauthor=False)) / "serve-tables.json"
        self.path = path

    def get(self, database: str, game: str) -> tuple[str, str] | None:
        """The table id and host secret kept for ``game`` on ``database``, if any."""
        kept = self._read().get(f"{game} {database}")
        if isinstance(kept, dict) and isinstance(kept.get("table_id"), str) \
                and isinstance(kept.get("host_secret"), str):  # fmt: skip
            return kept["table_id"], kept["host_secret"]
        return None

    def keep(self, database: str, game: str, table_id: str, host_secret: str) -> None:
        kept = self._read()
        kept[f"{game} {database}"] = {"table_id": table_id, "host_secret": host_secret}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump(kept, out, indent=1, sort_keys=True)
        os.replace(fresh, self.path)

    def _read(self) -> dict[str, Any]:
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return kept if isinstance(kept, dict) else {}
