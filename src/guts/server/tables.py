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
from typing import TYPE_CHECKING

from guts.errors import GutsError
from guts.server.actor import Settings, TableActor, digest
from guts.server.storage import EXPIRED, Storage, StoredTable, TableRow

if TYPE_CHECKING:
    from guts.server.nodes import Node

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
        self.node: Node | None = None
        """This server as one node of several (``--redis``): the tables it runs are those
        whose lease it holds; the others are copies that relay to their owner."""

    async def open_all(self) -> list[str]:
        """Rebuild every open table (as one node of several: those nobody holds); the ids
        that would not replay (left out, logged)."""
        if self.node is not None:
            return await self.node.take_free()
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
            if self.node is not None:
                return await self._owned(stored, self.node)
            return self._run(stored)

    def _run(self, stored: StoredTable) -> TableActor:
        """Rebuild ``stored``'s actor and start it."""
        actor = TableActor(stored.table, self.storage, self.settings)
        actor.load(stored)
        actor.state.check()
        self.actors[stored.table.id] = actor
        actor.start()
        return actor

    async def _owned(self, stored: StoredTable, node: Node) -> TableActor:
        """``stored``'s actor, run here if nobody holds its lease (taken with the next
        generation); else a copy of it, never started, that relays to its owner."""
        table_id = stored.table.id
        for _ in range(3):  # a lease may expire or be taken between two looks
            fence = await node.acquire(table_id)
            if fence is not None:
                stored = await self.storage.load(table_id) or stored  # newest, under the lease
                try:
                    actor = self._run(stored)
                except Exception:
                    node.fences.pop(table_id, None)
                    await node.leases.release([table_id])
                    raise
                node.own(actor, fence)
                return actor
            owner = await node.leases.owner_of(table_id)
            if owner is not None:
                copy = TableActor(stored.table, self.storage, self.settings)
                await asyncio.to_thread(copy.load, stored)  # a long record: off the loop
                copy.remote = node.relay.link(table_id, owner)
                return copy
        raise GutsError(f"table {table_id}: its lease changes hands too fast to open it")

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
        if self.node is not None:
            fence = await self.node.acquire(row.id)
            if fence is None:
                raise GutsError(f"table {row.id}: another node holds the new table's lease")
            self.node.own(actor, fence)
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
        """Stop every actor (after the commands already queued); as a node, give up the
        leases after, so another node takes the tables over at once."""
        if self.node is not None:
            await self.node.quiet()
        await _gather(actor.close() for actor in self.actors.values())
        self.actors.clear()
        if self.node is not None:
            await self.node.close()


async def _gather(waits: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*waits)
