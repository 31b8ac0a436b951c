"""The device tokens of ``guts join``: one a table and nickname, kept in a file in the
user data directory, so that a client stopped (or cut off) and run again takes up the
same seat; and the client's **device key** (one per file, 256 random bits, as a browser
keeps one), with which a seat at a club's table counts for this device's member.

>>> import tempfile
>>> kept = SeatTokens(Path(tempfile.mkdtemp()) / "seats.json")
>>> kept.get("ws://127.0.0.1:8000/ws/abc", "Jo") is None
True
>>> kept.keep("ws://127.0.0.1:8000/ws/abc?v=2", "Jo", "t0ken")
>>> kept.get("ws://127.0.0.1:8000/ws/abc", "jo")
't0ken'
>>> kept.get("ws://127.0.0.1:8000/ws/abc", "Al") is None
True
>>> kept.forget("ws://127.0.0.1:8000/ws/abc", "Jo")
>>> kept.get("ws://127.0.0.1:8000/ws/abc", "Jo") is None
True
>>> key = kept.device_key()
>>> len(key) >= 43 and kept.device_key() == key  # made once, then kept
True
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["DEVICE", "SeatTokens", "default_path"]

DEVICE = "device"
"""The file's entry of the device key (no seat's entry is a single word)."""


def default_path() -> Path:
    """``seats.json`` in the user data directory (beside ``guts serve``'s database)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("guts", appauthor=False)) / "seats.json"


def _key(table_url: str, nickname: str) -> str:
    """The table's websocket without its query, and the nickname as the table compares
    them (two people at one machine keep a seat each)."""
    link = urlsplit(table_url)
    return f"{link.scheme}://{link.netloc}{link.path.rstrip('/')} {nickname.strip().casefold()}"


class SeatTokens:
    """The kept device tokens, in the JSON file ``path`` (only its owner may read it: a
    token is the seat)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def get(self, table_url: str, nickname: str) -> str | None:
        """The token kept for ``nickname`` at the table, if one is."""
        token = self._read().get(_key(table_url, nickname))
        return token if isinstance(token, str) else None

    def keep(self, table_url: str, nickname: str, token: str) -> None:
        kept = self._read()
        kept[_key(table_url, nickname)] = token
        self._write(kept)

    def device_key(self) -> str:
        """This client's device key, made on first use (256 random bits, URL-safe, as the
        page's ``deviceKey()``): the same for every table and nickname kept here."""
        kept = self._read()
        key = kept.get(DEVICE)
        if not isinstance(key, str) or len(key) < 43:
            key = kept[DEVICE] = secrets.token_urlsafe(32)
            self._write(kept)
        return key

    def forget(self, table_url: str, nickname: str) -> None:
        kept = self._read()
        if kept.pop(_key(table_url, nickname), None) is not None:
            self._write(kept)

    def _read(self) -> dict[str, Any]:
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none kept yet (or a file that is not ours to read: start afresh)
        return kept if isinstance(kept, dict) else {}

    def _write(self, kept: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                json.dump(kept, out, indent=1, sort_keys=True)
            os.replace(fresh, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                fresh.unlink()
