"""A server's tables: the actors of the open ones, rebuilt at startup, and new ones.

>>> Tables.__doc__.splitlines()[0]
"A server's tables: the open ones are rebuilt at startup, others loaded when asked."
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Iterable, Mapping
from datetime import UTC, datetime, timedelta

from guts.errors import GutsError
from guts.server.actor import Settings, TableActor, digest
from guts.server.storage import EXPIRED, Storage, TableRow

__all__ = ["Tables", "new_table_id"]

log = logging.getLogger("guts.server")


def new_table_id() -> str:
    """An unguessable table id: 128 random bits, URL-safe.

    >>> len(new_table_id()) >= 22
    True
    """
    return secrets.token_urlsafe(16)


class Tables:
    """A server's tables: the open ones are rebuilt at startup, others loaded when asked."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.actors: dict[str, TableActor] = {}
        self._loading = asyncio.Lock()

    async def open_all(self) -> list[str]:
        """Rebuild every open table; the ids that would not replay (left out, logged)."""
        broken = []
        for table_id in await self.storage.table_ids():
            try:
                await self.get(table_id)
            except GutsError:
                log.exception("table %s does not replay", table_id)
                broken.append(table_id)
        return broken

    async def get(self, table_id: str) -> TableActor | None:
        """The actor of ``table_id`` (loaded and started if need be), None if no such table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        async with self._loading:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.storage.load(table_id)
            if stored is None or stored.table.status == EXPIRED:
                return None
            actor = TableActor(stored.table, self.storage, self.settings)
            actor.load(stored)
            actor.state.check()
            self.actors[table_id] = actor
            actor.start()
            return actor

    async def create(
        self,
        preset: str,
        options: dict[str, str],
        buy_in: int,
        *,
        auto_approve: bool,
        clocks: Mapping[str, int] | None = None,
    ) -> tuple[TableActor, str]:
        """A new table and its host secret; ``clocks`` its ``clock``, ``time_bank`` and
        ``away_after`` (see :class:`~guts.server.protocol.CreateTable`)."""
        secret = secrets.token_urlsafe(24)
        stakes = {"buy_in": buy_in, **(clocks or {})}
        row = TableRow(new_table_id(), preset, options, stakes, auto_approve, digest(secret))
        await self.storage.create_table(row)
        actor = TableActor(row, self.storage, self.settings)
        self.actors[row.id] = actor
        actor.start()
        return actor, secret

    async def expire(self, idle_s: float) -> list[str]:
        """Expire the tables with no person seated that changed nothing in ``idle_s``
        seconds (:meth:`Storage.expire_idle`), and stop their actors; their ids."""
        before = datetime.now(UTC) - timedelta(seconds=idle_s)
        expired = await self.storage.expire_idle(before)
        for table_id in expired:
            actor = self.actors.pop(table_id, None)
            if actor is not None:
                await actor.close()
            log.info("table expired", extra={"event": "expired", "table": table_id})
        return expired

    async def close(self) -> None:
        """Stop every actor (after the commands already queued)."""
        await _gather(actor.close() for actor in self.actors.values())
        self.actors.clear()


async def _gather(waits: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*waits)
