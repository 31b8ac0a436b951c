"""Table leases on PostgreSQL: one owner a table at a time, and fencing, so that a node
that lost its lease (a pause, a partition) can never commit a command for the table."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from guts.errors import GutsError
from guts.server.actor import TableActor, digest
from guts.server.lease import Fence, Leases
from guts.server.protocol import AddBot, ProtocolError
from guts.server.storage import Storage, TableRow

TTL = 60.0
"""Seconds a lease lasts in these tests: longer than any of them (a lease runs out when
a test says so, :func:`lapse`, or in the race, where it is short)."""


def new_row(secret: str) -> TableRow:
    return TableRow(secrets.token_hex(8), "two-card-guts", {}, {"buy_in": 50}, True,
                    digest(secret))  # fmt: skip


async def lapse(storage: Storage, table_id: str) -> None:
    """Let ``table_id``'s lease run out, as the time of a paused owner would."""
    import sqlalchemy as sa

    await storage.run(lambda connection: connection.execute(
        sa.text("UPDATE leases SET expires_at = now() - interval '1 second' "
                "WHERE table_id = :table"), {"table": table_id}
    ))  # fmt: skip


def add_bot(secret: str) -> AddBot:
    return AddBot(type="add_bot", secret=secret, bot="random")


def test_two_nodes_racing_for_a_table_one_gets_it(postgres_url: str) -> None:
    async def run() -> None:
        one, two = await Storage.open(postgres_url), await Storage.open(postgres_url)
        try:
            row = new_row("s")
            await one.create_table(row)
            a, b = Leases(one, "node-a", TTL), Leases(two, "node-b", TTL)
            for _ in range(5):  # however often they race, one of them holds it
                got = await asyncio.gather(a.acquire(row.id), b.acquire(row.id))
                held = [fence for fence in got if fence is not None]
                assert len(held) <= 1
            owner = await a.owner_of(row.id)
            assert owner in ("node-a", "node-b")
            assert await b.acquire(row.id) is None and await a.acquire(row.id) is None
        finally:
            await one.close()
            await two.close()

    asyncio.run(run())


def test_a_stale_owner_cannot_commit_after_a_takeover(postgres_url: str) -> None:
    """Node A owns the table and commits; it pauses past its lease; node B takes the
    table (the next generation) and replays it; A wakes and tries to commit: refused,
    nothing stored, and A lets the table go. B goes on from A's last command."""

    async def run() -> None:
        one, two = await Storage.open(postgres_url), await Storage.open(postgres_url)
        secret = "host-secret"
        row = new_row(secret)
        await one.create_table(row)
        a, b = Leases(one, "node-a", 60), Leases(two, "node-b", 60)
        fence_a = await a.acquire(row.id)
        assert fence_a == Fence(row.id, "node-a", 1)
        owner_a = TableActor(row, one)
        owner_a.fence = fence_a
        lost: list[TableActor] = []
        owner_a.on_lost = lost.append
        owner_a.start()
        try:
            await owner_a.call(add_bot(secret))
            assert await b.acquire(row.id) is None  # held: B may not take it
            await lapse(one, row.id)  # A is paused past its lease: it renews nothing
            fence_b = await b.acquire(row.id)
            assert fence_b == Fence(row.id, "node-b", 2)
            stored = await two.load(row.id)
            assert stored is not None and len(stored.actions) == 1
            owner_b = TableActor(stored.table, two)
            owner_b.load(stored)
            owner_b.fence = fence_b
            owner_b.start()

            with pytest.raises(ProtocolError, match="moved to another server"):
                await owner_a.call(add_bot(secret))  # A wakes: fenced off
            assert lost == [owner_a]
            assert await a.renew([fence_a]) == set()  # and its heartbeat says so too
            after = await one.load(row.id)
            assert after is not None and len(after.actions) == 1

            await owner_b.call(add_bot(secret))
            assert owner_b.seq == 2
            assert await b.renew([fence_b]) == {row.id}
            final = await two.load(row.id)
            assert final is not None and [action.seq for action in final.actions] == [1, 2]
            await owner_b.close()
        finally:
            await owner_a.close()
            await one.close()
            await two.close()

    asyncio.run(run())


async def race_round(one: Storage, two: Storage) -> tuple[int, int]:
    """Node A commits bot after bot under a short lease while node B tries to take the
    table: how many commands A was told were stored, and how many the record holds."""
    secret = "s"
    row = new_row(secret)
    await one.create_table(row)
    a, b = Leases(one, "node-a", 0.05), Leases(two, "node-b", TTL)
    fence = await a.acquire(row.id)
    assert fence is not None
    actor = TableActor(row, one)
    actor.fence = fence
    actor.start()
    accepted = 0

    async def commits() -> None:
        nonlocal accepted
        for _ in range(8):
            try:
                await actor.call(add_bot(secret))
            except ProtocolError:
                return
            accepted += 1

    async def takeover() -> None:
        while await b.acquire(row.id) is None:
            await asyncio.sleep(0)

    await asyncio.gather(commits(), takeover())
    await actor.close()
    stored = await two.load(row.id)
    assert stored is not None
    return accepted, len(stored.actions)


def test_a_commit_under_way_finishes_before_the_takeover_reads(postgres_url: str) -> None:
    """The fence's share lock orders a commit and a takeover: whichever comes second sees
    the first. Round after round of A committing while B takes over: the record holds
    exactly the commands A was told were stored (none lost, none of a stale owner)."""

    async def run() -> None:
        one, two = await Storage.open(postgres_url), await Storage.open(postgres_url)
        try:
            for _ in range(5):
                accepted, stored = await race_round(one, two)
                assert accepted == stored
        finally:
            await one.close()
            await two.close()

    asyncio.run(run())


def test_leases_need_postgresql(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        try:
            with pytest.raises(GutsError, match="PostgreSQL"):
                Leases(storage, "node-a", TTL)
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_table_that_expired_is_not_renewed(postgres_url: str) -> None:
    """Any node may expire an idle table; its owner's next heartbeat then finds the lease
    not renewed, and lets the table go like a lost one."""
    import sqlalchemy as sa

    from guts.server.storage import EXPIRED, TABLES

    async def run() -> None:
        storage = await Storage.open(postgres_url)
        try:
            kept, expired = new_row("s"), new_row("s")
            for row in (kept, expired):
                await storage.create_table(row)
            leases = Leases(storage, "node-a", TTL)
            fences = [await leases.acquire(row.id) for row in (kept, expired)]
            assert None not in fences
            await storage.run(lambda connection: connection.execute(
                sa.update(TABLES).where(TABLES.c.id == expired.id).values(status=EXPIRED)
            ))  # fmt: skip
            assert await leases.renew([f for f in fences if f is not None]) == {kept.id}
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_table_let_go_refuses_what_comes_after_its_close(sqlite_url: str) -> None:
    """A node lets a table go while a route still holds its actor (opening it, adding its
    bots): the commands after the close are refused at once, never left waiting."""

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        try:
            row = new_row("s")
            await storage.create_table(row)
            actor = TableActor(row, storage)
            actor.start()
            before = asyncio.ensure_future(actor.call(add_bot("s")))
            await asyncio.sleep(0)  # in the inbox before the close: done
            closing = asyncio.ensure_future(actor.close())
            await asyncio.sleep(0)  # the close is queued
            late = asyncio.ensure_future(actor.call(add_bot("s")))  # after it: refused
            await asyncio.wait_for(closing, 10)
            await asyncio.wait_for(before, 10)
            with pytest.raises(ProtocolError, match="closed here"):
                await asyncio.wait_for(late, 10)
            with pytest.raises(ProtocolError, match="closed here"):
                await asyncio.wait_for(actor.call(add_bot("s")), 10)
            stored = await storage.load(row.id)
            assert stored is not None and len(stored.actions) == 1
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_table_being_created_is_not_free_to_another_node(postgres_url: str) -> None:
    """A node stores a new table, then takes its lease: meanwhile another node's
    heartbeat must not take the table as one nobody holds (the creator's lease would be
    refused, the new table lost to it). One stored longer than a lease ago without a
    lease (its creator died in between) is free."""

    async def run() -> None:
        one, two = await Storage.open(postgres_url), await Storage.open(postgres_url)
        try:
            row = new_row("s")
            await one.create_table(row)
            a, b = Leases(one, "node-a", TTL), Leases(two, "node-b", TTL)
            assert row.id not in await b.free()
            assert await a.acquire(row.id) == Fence(row.id, "node-a", 1)
            orphan = new_row("t")
            await one.create_table(orphan)
            import sqlalchemy as sa

            await one.run(lambda connection: connection.execute(
                sa.text("UPDATE tables SET created_at = now() - make_interval(secs => :old) "
                        "WHERE id = :table"), {"table": orphan.id, "old": 2 * TTL}
            ))  # fmt: skip
            free = await b.free()
            assert orphan.id in free and row.id not in free
        finally:
            await one.close()
            await two.close()

    asyncio.run(run())
