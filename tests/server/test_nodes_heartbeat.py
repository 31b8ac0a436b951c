"""A node's heartbeat renews its own leases on time while it takes many tables over (a
dead node's hundreds of tables, each replayed from its record), on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import secrets

import pytest
import sqlalchemy as sa
from nodes_helpers import find_redis

from guts.server.actor import TableActor, digest
from guts.server.lease import Leases
from guts.server.nodes import TAKE_SLICE, Node
from guts.server.storage import Storage, TableRow
from guts.server.tables import Tables

LEASE_S = 1.0
REPLAY_S = 0.3
"""How long each takeover's replay takes here (a long record): the takeovers below take
many leases' time in all."""


@pytest.fixture
def redis_url() -> str:
    return find_redis()


class SlowReplays(Tables):
    """A server's tables whose every load takes :data:`REPLAY_S` (a long record)."""

    async def get(self, table_id: str) -> TableActor | None:
        if table_id not in self.actors:
            await asyncio.sleep(REPLAY_S)
        return await super().get(table_id)


async def orphans(storage: Storage, count: int) -> list[str]:
    """``count`` open tables whose creator died before it took their lease: free."""
    ids = []
    for _ in range(count):
        row = TableRow(secrets.token_hex(8), "two-card-guts", {}, {"buy_in": 50}, True,
                       digest("s"))  # fmt: skip
        await storage.create_table(row)
        ids.append(row.id)
    await storage.run(lambda connection: connection.execute(
        sa.text("UPDATE tables SET created_at = now() - interval '1 hour' "
                "WHERE id = ANY(:tables)"), {"tables": ids}
    ))  # fmt: skip
    return ids


def test_own_leases_are_renewed_while_many_tables_are_taken_over(
    postgres_url: str, redis_url: str
) -> None:
    """The node's own table keeps its lease, never free to another node, all through a
    takeover of more tables than one look finds that lasts many leases' time; and every
    free table is taken."""

    async def run() -> None:
        storage, spy_storage = await Storage.open(postgres_url), await Storage.open(postgres_url)
        tables = SlowReplays(storage)
        node = Node(tables, redis_url, LEASE_S)
        tables.node = node
        spy = Leases(spy_storage, "spy", LEASE_S)
        try:
            await node.start()
            own, _ = await tables.create("two-card-guts", {}, 50, auto_approve=True)
            free = await orphans(storage, TAKE_SLICE + 2)
            owners = []
            while not all(table_id in tables.actors for table_id in free):
                owners.append(await spy.owner_of(own.id))
                await asyncio.sleep(0.1)
            assert set(owners) == {node.id}
            assert await spy.acquire(own.id) is None
        finally:
            await tables.close()
            await storage.close()
            await spy_storage.close()

    asyncio.run(run())
