"""Table leases: each table owned by exactly one node at a time, with fencing.

When several ``guts serve`` processes (nodes) share one PostgreSQL database, a table's
actor runs on the node that holds the table's row in ``leases``: its owner, a
generation and an expiry in the database's own clock (so the nodes' clocks never
matter). The owner renews it with a heartbeat; once it expires any node may take the
table, which bumps the generation and replays the table from its record.

A paused or cut-off owner may not know it lost the lease, so every commit of a leased
table checks, in its own transaction, that the lease still has the owner and generation
the actor was started with (:class:`Fence`); the check takes a share lock on the lease
row, so a takeover (which updates the row) waits for a commit under way, and a commit
after a takeover sees the new generation and is refused with :class:`LeaseLost`. No
command of a stale owner is ever stored, whatever the timing.

PostgreSQL only: the leases need a database server shared by the nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from guts.errors import GutsError
from guts.server.storage import OPEN_STATUSES, Storage

__all__ = ["Fence", "LeaseLost", "Leases"]


class LeaseLost(GutsError):
    """A commit refused: the node no longer holds the table's lease it was started with."""


@dataclass(frozen=True)
class Fence:
    """The lease an actor was started under: checked in every commit's transaction."""

    table_id: str
    owner: str
    generation: int

    def __call__(self, connection: Connection) -> None:
        """Raise LeaseLost unless the lease is still ``owner``'s, at ``generation``."""
        held = connection.execute(
            _HELD, {"table": self.table_id, "owner": self.owner, "generation": self.generation}
        ).first()
        if held is None:
            raise LeaseLost(f"table {self.table_id}: node {self.owner} lost its lease "
                            f"(generation {self.generation})")  # fmt: skip


_HELD = sa.text(
    "SELECT 1 FROM leases WHERE table_id = :table AND owner = :owner "
    "AND generation = :generation FOR SHARE"
)
_ACQUIRE = sa.text(
    "INSERT INTO leases AS l (table_id, owner, generation, expires_at, heartbeat) "
    "VALUES (:table, :owner, 1, now() + make_interval(secs => :ttl), now()) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = :owner, generation = l.generation + 1, "
    "expires_at = now() + make_interval(secs => :ttl), heartbeat = now() "
    "WHERE l.expires_at < now() RETURNING generation"
)
_RENEW = sa.text(
    "WITH mine AS (SELECT l.table_id FROM leases AS l JOIN tables AS t ON t.id = l.table_id "
    "WHERE l.owner = :owner AND l.table_id = ANY(:tables) AND t.status <> 'expired' "
    "ORDER BY l.table_id FOR UPDATE OF l) "
    "UPDATE leases SET expires_at = now() + make_interval(secs => :ttl), heartbeat = now() "
    "WHERE table_id IN (SELECT table_id FROM mine) RETURNING table_id, generation"
)
"""Renew a node's leases, locking their rows in the order of the table ids, as the
commits' fences do (:func:`guts.server.storage._commit`): the two never deadlock."""
_RELEASE = sa.text(
    "UPDATE leases SET expires_at = '-infinity' WHERE owner = :owner AND table_id = ANY(:tables)"
)
_FREE = sa.text(
    "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id "
    "WHERE t.status = ANY(:statuses) AND (l.expires_at < now() OR (l.table_id IS NULL "
    "AND t.created_at < now() - make_interval(secs => :ttl))) "
    "ORDER BY t.created_at, t.id LIMIT :limit"
)
"""The open tables nobody holds: their lease expired, or they never had one and are
older than a lease (a table is stored, then its creator takes its lease: until a lease's
time has passed, one without is being created, not free; after it, its creator died
first)."""
_OWNER = sa.text("SELECT owner FROM leases WHERE table_id = :table AND expires_at >= now()")
_OWNERS = sa.text(
    "SELECT table_id, owner FROM leases WHERE table_id = ANY(:tables) AND expires_at >= now()"
)


class Leases:
    """The lease rows of one node (``owner``), ``ttl`` seconds long."""

    def __init__(self, storage: Storage, owner: str, ttl: float) -> None:
        if storage.dialect != "postgresql":
            raise GutsError("several nodes need PostgreSQL (--database postgresql://...)")
        self.storage = storage
        self.owner = owner
        self.ttl = ttl

    async def acquire(self, table_id: str) -> Fence | None:
        """Take ``table_id``'s lease if none holds it (or it expired): its fence, with the
        next generation; None while another node holds it."""

        def take(connection: Connection) -> int | None:
            values = {"table": table_id, "owner": self.owner, "ttl": self.ttl}
            found = connection.execute(_ACQUIRE, values).scalar()
            return None if found is None else int(found)

        generation = await self.storage.run(take)
        return None if generation is None else Fence(table_id, self.owner, generation)

    async def renew(self, fences: Sequence[Fence]) -> set[str]:
        """Extend the leases of ``fences``: the ids of the tables still held at the fence's
        generation (the others were lost, or their table expired, as any node may find
        it: stop acting for them)."""
        if not fences:
            return set()
        wanted = {fence.table_id: fence.generation for fence in fences}

        def extend(connection: Connection) -> set[str]:
            rows = connection.execute(
                _RENEW, {"ttl": self.ttl, "owner": self.owner, "tables": list(wanted)}
            )
            return {row.table_id for row in rows if wanted.get(row.table_id) == row.generation}

        return await self.storage.run(extend)

    async def release(self, table_ids: Sequence[str]) -> None:
        """Give up the leases of ``table_ids`` at once (a clean stop): another node may take
        them without waiting for them to expire."""
        if table_ids:
            values = {"owner": self.owner, "tables": list(table_ids)}
            await self.storage.run(lambda connection: connection.execute(_RELEASE, values))

    async def free(self, limit: int = 50) -> list[str]:
        """Open tables no node holds (the lease expired, or never leased and older than a
        lease: see :data:`_FREE`), oldest first."""

        def read(connection: Connection) -> list[str]:
            values = {"statuses": list(OPEN_STATUSES), "limit": limit, "ttl": self.ttl}
            return [row.id for row in connection.execute(_FREE, values)]

        return await self.storage.run(read)

    async def owner_of(self, table_id: str) -> str | None:
        """The node holding ``table_id``'s lease now (None: none does)."""

        def read(connection: Connection) -> str | None:
            found = connection.execute(_OWNER, {"table": table_id}).scalar()
            return None if found is None else str(found)

        return await self.storage.run(read)

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The node holding each of ``table_ids`` now (those held)."""

        def read(connection: Connection) -> dict[str, str]:
            rows = connection.execute(_OWNERS, {"tables": list(table_ids)})
            return {row.table_id: row.owner for row in rows}

        return await self.storage.run(read)
