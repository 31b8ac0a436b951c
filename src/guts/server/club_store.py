"""Where a server keeps its clubs: the rows of :mod:`guts.server.storage`'s club tables,
read into a :class:`~guts.club.members.Roster` and written back.

A change to a club's members runs in one transaction: the club's row is locked (on
PostgreSQL; SQLite has one writer), its roster read, changed by the rules of
:mod:`guts.club.members`, and the difference written. A change the rules refuse still
writes what it counted (a wrong code is a failure): the refusal is returned, not raised
inside the transaction.
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from guts.club.members import ClaimCode, ClaimError, Member, Roster
from guts.server.storage import (
    CLUB_CODES,
    CLUB_DEVICES,
    CLUB_MEMBERS,
    CLUB_NIGHTS,
    CLUB_SEATS,
    CLUB_TABLES,
    CLUBS,
    TABLES,
    Storage,
)

__all__ = ["ClubRow", "ClubStore", "ClubTable"]

T = TypeVar("T")


@dataclass(frozen=True)
class ClubRow:
    """A club: its id, name and the hash of the host's club secret."""

    id: str
    name: str
    secret_hash: str

    def is_host(self, secret_hash: str) -> bool:
        """True if ``secret_hash`` is the club secret's (compared in constant time)."""
        return hmac.compare_digest(self.secret_hash, secret_hash)


@dataclass(frozen=True)
class ClubTable:
    """A table of a club: its id, when it was opened, and its status."""

    table_id: str
    created_at: datetime
    status: str


def _now() -> datetime:
    return datetime.now(UTC)


class ClubStore:
    """The clubs of a server's database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def create(self, name: str, secret_hash: str) -> str:
        """A new club named ``name``; its id (96 random bits, URL-safe)."""
        club_id = secrets.token_urlsafe(12)
        row = {"id": club_id, "name": name, "secret_hash": secret_hash, "failures": 0,
               "created_at": _now()}  # fmt: skip
        await self.storage.run(lambda connection: connection.execute(CLUBS.insert(), row))
        return club_id

    async def club(self, club_id: str) -> ClubRow | None:
        def read(connection: Connection) -> ClubRow | None:
            row = connection.execute(CLUBS.select().where(CLUBS.c.id == club_id)).first()
            return None if row is None else ClubRow(row.id, row.name, row.secret_hash)

        return await self.storage.run(read)

    async def club_of_table(self, table_id: str) -> ClubRow | None:
        """The club ``table_id`` counts for, if any."""

        def read(connection: Connection) -> ClubRow | None:
            row = connection.execute(
                sa.select(CLUBS.c.id, CLUBS.c.name, CLUBS.c.secret_hash)
                .join(CLUB_TABLES, CLUB_TABLES.c.club_id == CLUBS.c.id)
                .where(CLUB_TABLES.c.table_id == table_id)
            ).first()
            return None if row is None else ClubRow(row.id, row.name, row.secret_hash)

        return await self.storage.run(read)

    async def attach(self, club_id: str, table_id: str) -> bool:
        """Count ``table_id`` for the club: False if it counts for a club already."""

        def write(connection: Connection) -> bool:
            known = connection.execute(
                sa.select(CLUB_TABLES.c.club_id).where(CLUB_TABLES.c.table_id == table_id)
            ).scalar()
            if known is not None:
                return bool(known == club_id)
            connection.execute(CLUB_TABLES.insert(), {"table_id": table_id, "club_id": club_id,
                                                      "created_at": _now()})  # fmt: skip
            return True

        return await self.storage.run(write)

    async def tables(self, club_id: str) -> list[ClubTable]:
        """The club's tables, oldest first."""

        def read(connection: Connection) -> list[ClubTable]:
            rows = connection.execute(
                sa.select(TABLES.c.id, TABLES.c.created_at, TABLES.c.status)
                .join(CLUB_TABLES, CLUB_TABLES.c.table_id == TABLES.c.id)
                .where(CLUB_TABLES.c.club_id == club_id)
                .order_by(TABLES.c.created_at, TABLES.c.id)
            )
            return [ClubTable(row.id, row.created_at, row.status) for row in rows]

        return await self.storage.run(read)

    async def summaries(self, club_id: str) -> dict[str, Any]:
        """The kept summaries of the club's finished tables (JSON), by table id."""

        def read(connection: Connection) -> dict[str, Any]:
            rows = connection.execute(
                sa.select(CLUB_NIGHTS.c.table_id, CLUB_NIGHTS.c.summary)
                .join(CLUB_TABLES, CLUB_TABLES.c.table_id == CLUB_NIGHTS.c.table_id)
                .where(CLUB_TABLES.c.club_id == club_id)
            )
            return {row.table_id: row.summary for row in rows}

        return await self.storage.run(read)

    async def keep_summary(self, table_id: str, summary: Mapping[str, Any]) -> None:
        """Keep a finished table's summary (once: a second writer's is the same)."""

        def write(connection: Connection) -> None:
            connection.execute(CLUB_NIGHTS.insert(), {"table_id": table_id,
                                                      "summary": dict(summary),
                                                      "created_at": _now()})  # fmt: skip

        with contextlib.suppress(IntegrityError):  # another request kept it first
            await self.storage.run(write)

    async def roster(self, club_id: str) -> Roster:
        """The club's members, devices, seats and open codes."""
        return await self.storage.run(lambda connection: _read_roster(connection, club_id))

    async def change(self, club_id: str, change: Callable[[Roster], T]) -> T:
        """Apply ``change`` to the club's roster and write what it changed, in one
        transaction; a ClaimError it raises is raised after what it counted is written."""

        def work(connection: Connection) -> T | ClaimError:
            lock = sa.select(CLUBS.c.id).where(CLUBS.c.id == club_id).with_for_update()
            connection.execute(lock)
            before = _read_roster(connection, club_id)
            after = before.copy()
            try:
                answer: T | ClaimError = change(after)
            except ClaimError as refused:
                answer = refused
            _write_roster(connection, club_id, before, after)
            return answer

        answer = await self.storage.run(work)
        if isinstance(answer, ClaimError):
            raise answer
        return answer


def _read_roster(connection: Connection, club_id: str) -> Roster:
    failures = connection.execute(sa.select(CLUBS.c.failures).where(CLUBS.c.id == club_id)).scalar()
    members = {
        row.member_id: Member(row.member_id, row.name, _aware(row.since))
        for row in connection.execute(
            CLUB_MEMBERS.select().where(CLUB_MEMBERS.c.club_id == club_id)
            .order_by(CLUB_MEMBERS.c.since, CLUB_MEMBERS.c.member_id)
        )
    }  # fmt: skip
    devices = {
        row.device_hash: row.member_id
        for row in connection.execute(
            CLUB_DEVICES.select().where(CLUB_DEVICES.c.club_id == club_id)
        )
    }  # fmt: skip
    seats = {
        (row.table_id, row.seat_id): row.member_id
        for row in connection.execute(CLUB_SEATS.select().where(CLUB_SEATS.c.club_id == club_id))
    }  # fmt: skip
    codes = [
        ClaimCode(row.code_hash, row.member_id, _aware(row.expires) or _now())
        for row in connection.execute(CLUB_CODES.select().where(CLUB_CODES.c.club_id == club_id))
    ]  # fmt: skip
    return Roster(members, devices, seats, codes, int(failures or 0))


def _aware(when: datetime | None) -> datetime | None:
    """A time read back with its zone (SQLite gives it back without: it was UTC)."""
    if when is None or when.tzinfo is not None:
        return when
    return when.replace(tzinfo=UTC)


def _write_roster(connection: Connection, club_id: str, before: Roster, after: Roster) -> None:
    """Write what changed from ``before`` to ``after``."""
    members = CLUB_MEMBERS.c
    _sync(connection, before.members, after.members,
          delete=lambda key: CLUB_MEMBERS.delete().where(members.club_id == club_id,
                                                         members.member_id == key),
          insert=lambda key, m: CLUB_MEMBERS.insert().values(club_id=club_id, member_id=key,
                                                             name=m.name, since=m.since),
          update=lambda key, m: CLUB_MEMBERS.update().where(
              members.club_id == club_id, members.member_id == key
          ).values(name=m.name, since=m.since))  # fmt: skip
    devices = CLUB_DEVICES.c
    _sync(connection, before.devices, after.devices,
          delete=lambda key: CLUB_DEVICES.delete().where(devices.club_id == club_id,
                                                         devices.device_hash == key),
          insert=lambda key, m: CLUB_DEVICES.insert().values(club_id=club_id,
                                                             device_hash=key, member_id=m),
          update=lambda key, m: CLUB_DEVICES.update().where(
              devices.club_id == club_id, devices.device_hash == key
          ).values(member_id=m))  # fmt: skip
    seats = CLUB_SEATS.c
    _sync(connection, before.seats, after.seats,
          delete=lambda key: CLUB_SEATS.delete().where(seats.table_id == key[0],
                                                       seats.seat_id == key[1]),
          insert=lambda key, m: CLUB_SEATS.insert().values(table_id=key[0], seat_id=key[1],
                                                           club_id=club_id, member_id=m),
          update=lambda key, m: CLUB_SEATS.update().where(
              seats.table_id == key[0], seats.seat_id == key[1]
          ).values(member_id=m))  # fmt: skip
    old = {code.code_hash: code for code in before.codes}
    new = {code.code_hash: code for code in after.codes}
    codes = CLUB_CODES.c
    _sync(connection, old, new,
          delete=lambda key: CLUB_CODES.delete().where(codes.code_hash == key),
          insert=lambda key, c: CLUB_CODES.insert().values(code_hash=key, club_id=club_id,
                                                           member_id=c.member_id,
                                                           expires=c.expires),
          update=lambda key, c: CLUB_CODES.update().where(codes.code_hash == key)
          .values(member_id=c.member_id, expires=c.expires))  # fmt: skip
    if after.failures != before.failures:
        connection.execute(
            CLUBS.update().where(CLUBS.c.id == club_id).values(failures=after.failures)
        )


def _sync(
    connection: Connection,
    before: Mapping[Any, Any],
    after: Mapping[Any, Any],
    *,
    delete: Callable[[Any], Any],
    insert: Callable[[Any, Any], Any],
    update: Callable[[Any, Any], Any],
) -> None:
    """Delete, insert and update the rows whose values differ between two mappings."""
    for key in before.keys() - after.keys():
        connection.execute(delete(key))
    for key, value in after.items():
        if key not in before:
            connection.execute(insert(key, value))
        elif before[key] != value:
            connection.execute(update(key, value))
