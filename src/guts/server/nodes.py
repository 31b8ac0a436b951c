"""One node of several: ``guts serve --redis URL`` on a PostgreSQL database that other
``guts serve`` processes share.

A node runs the actors of the tables whose lease it holds (:mod:`guts.server.lease`),
and relays the clients of the others' tables to them (:mod:`guts.server.relay`). Its
heartbeat, every third of the lease time:

- renews its leases, in a task of its own, so a takeover of many tables never makes it
  late (:meth:`Node.take_free`); a table whose lease it lost (it was paused or cut off
  longer than the lease: another node has it now) is let go: its clients are hung up, to
  reconnect (a table that expired, which any node may find, is let go too);
- says in Redis that it runs, and detaches the clients of nodes that stopped saying so;
- hangs up its linked clients of a table whose owner changed (they reconnect and
  resume, at the new owner or here);

and, in a second task at the same pace, it takes over the open tables nobody holds (never
leased, or the owner died or stopped), :data:`TAKE_SLICE` at a time: each is replayed
from its record, with the next lease generation, so no accepted command is lost and none
applied twice (the fence refuses any commit of the old owner).

A node that stops cleanly gives its leases up at once, so the others need not wait for
them to expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Protocol

from guts.errors import GutsError
from guts.server.actor import TableActor
from guts.server.lease import Fence, Leases
from guts.server.relay import Relay
from guts.server.storage import Storage

__all__ = ["LEASE_S", "TAKE_SLICE", "Node"]

log = logging.getLogger("guts.server")

LEASE_S = 5.0
"""Seconds a lease lasts unless renewed (``--lease-seconds``): a dead node's tables are
taken over within about this, plus a heartbeat."""
TAKE_SLICE = 16
"""How many more free tables a takeover looks up at a time: it takes them one by one,
then looks again, until none is left."""


class Tables(Protocol):
    """What a node needs of its server's tables (:class:`guts.server.tables.Tables`)."""

    storage: Storage
    actors: dict[str, TableActor]

    async def get(self, table_id: str) -> TableActor | None: ...


class Node:
    """This process as one node: its id, its leases, its relay and its heartbeat."""

    def __init__(self, tables: Tables, redis_url: str, lease_s: float = LEASE_S) -> None:
        self.id = secrets.token_hex(6)
        self.tables = tables
        self.lease_s = lease_s
        self.leases = Leases(tables.storage, self.id, lease_s)
        self.relay = Relay(redis_url, self.id, tables.actors.get)
        self.fences: dict[str, Fence] = {}
        """The leases this node holds, by table."""
        self.broken: set[str] = set()
        """Tables that would not replay here (not tried again)."""
        self._beating: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Connect to Redis and start the heartbeat (``Tables.open_all`` takes the tables
        nobody holds)."""
        await self.relay.start()
        await self.relay.alive(self.lease_s)
        self._beating = [
            asyncio.create_task(self._every_beat(self.beat), name="node heartbeat"),
            asyncio.create_task(self._every_beat(self.take_free), name="node takeovers"),
        ]
        log.info("node started", extra={"event": "node", "client": self.id})

    async def quiet(self) -> None:
        """Stop the heartbeat (before the actors close: it takes no table then)."""
        beating, self._beating = self._beating, []
        for task in beating:
            task.cancel()
        for task in beating:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def close(self) -> None:
        """Stop the heartbeat, give up the leases (call after the actors closed)."""
        await self.quiet()
        with contextlib.suppress(Exception):
            await self.leases.release(list(self.fences))
        self.fences.clear()
        await self.relay.close()

    async def acquire(self, table_id: str) -> Fence | None:
        """Take ``table_id``'s lease if nobody holds it (its fence, kept), else None."""
        fence = await self.leases.acquire(table_id)
        if fence is not None:
            self.fences[table_id] = fence
        return fence

    def own(self, actor: TableActor, fence: Fence) -> None:
        """Run ``actor`` under ``fence``: its commits are fenced, and a lost lease lets it go."""
        actor.fence = fence
        actor.on_lost = lambda lost: self.let_go(lost.id)

    def let_go(self, table_id: str) -> None:
        """Stop running ``table_id`` (its lease is lost): hang up its clients, here and
        elsewhere, so they reconnect to its new owner."""
        self.fences.pop(table_id, None)
        actor = self.tables.actors.pop(table_id, None)
        self.relay.drop_table(table_id)
        if actor is None:
            return
        log.warning("table %s let go: another node owns it (or it expired)", table_id,
                    extra={"event": "let-go", "table": table_id})  # fmt: skip
        for client in list(actor.clients):
            client.hang_up()
        asyncio.get_running_loop().create_task(actor.close())

    async def take_free(self) -> list[str]:
        """Take over the open tables nobody holds, :data:`TAKE_SLICE` looked up at a time,
        until none is left; the ids of those that would not replay. Each table is
        replayed in turn, so a dead node's hundreds of tables take a while: the leases
        this node holds are renewed meanwhile by the heartbeat's own task."""
        failed: list[str] = []
        tried: set[str] = set()
        while True:
            skipped = len(tried | self.broken)  # still free: looked past
            fresh = [table_id for table_id in await self.leases.free(skipped + TAKE_SLICE)
                     if table_id not in tried]  # fmt: skip
            if not fresh:
                return failed
            for table_id in fresh:
                tried.add(table_id)
                if table_id in self.broken or table_id in self.tables.actors:
                    continue
                try:
                    await self.tables.get(table_id)
                except GutsError:
                    log.exception("table %s does not replay", table_id)
                    self.broken.add(table_id)
                    failed.append(table_id)
                    continue
                if table_id in self.tables.actors:
                    log.info("table taken over", extra={"event": "taken", "table": table_id})

    async def beat(self) -> None:
        """One heartbeat, the takeovers left out (see the module's text)."""
        asked = dict(self.fences)  # a table taken meanwhile is not in this renewal
        held = await self.leases.renew(list(asked.values()))
        for table_id, fence in asked.items():
            if table_id not in held and self.fences.get(table_id) is fence:
                self.let_go(table_id)
        gone = await self.relay.alive(self.lease_s)
        if gone:
            self.relay.forget(gone)
        linked = self.relay.linked_tables()
        if linked:
            owners = await self.leases.owners(list(linked))
            for table_id, owner in linked.items():
                if owners.get(table_id) != owner:
                    self.relay.hang_up_table(table_id)

    async def _every_beat(self, work: Callable[[], Awaitable[object]]) -> None:
        """``work()`` every third of the lease time, for ever."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await work()
            except Exception:
                log.exception("node heartbeat failed", extra={"event": "error"})
