"""A club's roster as the database keeps it, on SQLite and PostgreSQL: what a change
writes is what is read back, a refused change still keeps what it counted, and the
migration makes the schema of the models."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from guts.club import members
from guts.club.members import ClaimError, Roster
from guts.server.club_store import ClubStore
from guts.server.storage import Storage, TableRow

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def test_a_roster_round_trips_through_the_database(database_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(database_url)
        store = ClubStore(storage)
        club_id = await store.create("Friday", "s" * 64)
        for table in ("t1", "t2"):
            await storage.create_table(TableRow(table, "two-card-guts", {}, {"buy_in": 5},
                                                True, "h" * 64))  # fmt: skip
            assert await store.attach(club_id, table)
        other = await store.create("Other", "o" * 64)
        assert not await store.attach(other, "t1")  # counted for one club only
        assert (await store.club_of_table("t1")).id == club_id  # type: ignore[union-attr]
        await store.change(club_id, lambda r: r.seat(("t1", 0), "laptop", "Jo", new_id="jo",
                                                     now=NOW))  # fmt: skip
        await store.change(club_id, lambda r: r.seat(("t2", 3), "phone", "Jj", new_id="jj"))
        await store.change(club_id, lambda r: r.issue("jo", "code", NOW))
        read = await store.roster(club_id)
        assert read.members["jo"].since == NOW and read.codes[0].member_id == "jo"
        assert read.devices == {"laptop": "jo", "phone": "jj"}
        await store.change(club_id, lambda r: r.redeem("code", "phone", NOW))
        read = await store.roster(club_id)
        assert list(read.members) == ["jo"] and read.codes == []
        assert read.seats == {("t1", 0): "jo", ("t2", 3): "jo"}
        assert read.devices == {"laptop": "jo", "phone": "jo"}
        assert [t.table_id for t in await store.tables(club_id)] == ["t1", "t2"]
        assert await store.roster(other) == Roster()
        await storage.close()

    asyncio.run(run())


def test_a_wrong_code_is_counted_though_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each refused guess is stored (its transaction is not rolled back with the refusal),
    up to the club's ceiling (lowered here from 1,000: a transaction a guess;
    ``tests/club/test_members.py`` counts to the real one in memory)."""
    monkeypatch.setattr(members, "MAX_FAILURES", 5)

    async def run() -> None:
        storage = await Storage.open(database_url)
        store = ClubStore(storage)
        club_id = await store.create("Friday", "s" * 64)
        await storage.create_table(TableRow("t1", "two-card-guts", {}, {"buy_in": 5}, True,
                                            "h" * 64))  # fmt: skip
        await store.change(club_id, lambda r: r.seat(("t1", 0), "laptop", "Jo", new_id="jo"))
        await store.change(club_id, lambda r: r.issue("jo", "right", NOW))
        for _ in range(members.MAX_FAILURES):
            with pytest.raises(ClaimError):
                await store.change(club_id, lambda r: r.redeem("guess", "phone", NOW))
        assert (await store.roster(club_id)).failures == members.MAX_FAILURES
        with pytest.raises(ClaimError, match="too many"):
            await store.change(club_id, lambda r: r.redeem("right", "phone", NOW))
        await storage.close()

    asyncio.run(run())
