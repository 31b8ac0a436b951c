"""Seat requests hold no seats: a table keeps at most ``MAX_REQUESTS`` waiting for the
host, and a refused or withdrawn request frees everything it held (its seat id, its
nickname, its place in the queue), so no number of joiners locks a table.

The audit's table: 32 websockets sent ``join`` and were refused or left pending; from
then on a friend and even the host's ``add_bot`` got "this table has 32 seats already".
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import Recorder, views

from guts.server.actor import MAX_REQUESTS, Settings, TableActor
from guts.server.protocol import (
    AddBot,
    Approve,
    Chat,
    Join,
    Leave,
    ProtocolError,
    Refuse,
    Start,
)
from guts.server.storage import Storage
from guts.server.tables import Tables


def on_lobby(sqlite_url: str, body: Any) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=False)
        try:
            await body(actor, secret, storage, tables)
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(run())


async def ask(actor: TableActor, nickname: str) -> Recorder:
    client = Recorder()
    actor.attach(client)
    await actor.call(Join(type="join", nickname=nickname), client)
    return client


async def replayed_seats(actor: TableActor, storage: Storage, tables: Tables) -> list[Any]:
    stored = await storage.load(actor.id)
    assert stored is not None
    copy = TableActor(stored.table, storage, tables.settings)
    copy.load(stored)
    return [seat.public() for seat in copy.state.seats.values()]


def seats_of(actor: TableActor) -> list[Any]:
    return [seat.public() for seat in actor.state.seats.values()]


def test_pending_requests_are_capped_and_do_not_lock_the_table(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage, tables: Tables) -> None:
        waiting = [await ask(actor, f"Griefer {n}") for n in range(MAX_REQUESTS)]
        with pytest.raises(ProtocolError, match=r"^not-now:.*requests wait"):
            await ask(actor, "Friend")
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))  # the host still can
        await actor.call(Refuse(type="refuse", secret=secret, seat_id=waiting[0].seat_id or 0))
        friend = await ask(actor, "Friend")
        await actor.call(Approve(type="approve", secret=secret, seat_id=friend.seat_id or 0))
        await actor.call(Start(type="start", secret=secret))
        assert actor.status == "playing"

    on_lobby(sqlite_url, body)


def test_hundreds_of_refused_requests_leave_nothing_behind(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage, tables: Tables) -> None:
        for _round in range(10):
            asked = [await ask(actor, f"Joiner {n}") for n in range(MAX_REQUESTS)]
            for client in asked:
                assert client.seat_id is not None and client.seat_id < MAX_REQUESTS
                await actor.call(Refuse(type="refuse", secret=secret, seat_id=client.seat_id))
                assert client.seat_id is None  # a spectator now
                assert client.of("snapshot")[-1]["you"] is None
        assert actor.seat_list() == []
        for _n in range(4):
            await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))
        again = await ask(actor, "Joiner 0")  # a refused nickname is free again
        assert [seat["nickname"] for seat in actor.seat_list()][-1] == "Joiner 0"
        assert await replayed_seats(actor, storage, tables) == seats_of(actor)
        assert again.seat_id == 4

    on_lobby(sqlite_url, body)


def test_a_refused_connection_cannot_act_chat_or_take_the_next_joiners_seat(
    sqlite_url: str,
) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage, tables: Tables) -> None:
        eve = await ask(actor, "Eve")
        freed = eve.seat_id
        await actor.call(Refuse(type="refuse", secret=secret, seat_id=freed or 0))
        pat = await ask(actor, "Pat")
        assert pat.seat_id == freed  # the seat id is reused...
        assert eve.seat_id is None  # ...and Eve's connection holds none of it
        with pytest.raises(ProtocolError, match=r"^not-seated:"):
            await actor.call(Chat(type="chat", text="hi"), eve)
        with pytest.raises(ProtocolError, match=r"^not-seated:"):
            await actor.call(Leave(type="leave"), eve)
        assert [line for line in actor.state.chat] == []

    on_lobby(sqlite_url, body)


def test_a_withdrawn_request_frees_everything_and_replays(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage, tables: Tables) -> None:
        ann = await ask(actor, "Ann")
        bob = await ask(actor, "Bob")
        await actor.call(Leave(type="leave"), bob)
        assert bob.seat_id is None
        assert [seat["nickname"] for seat in actor.seat_list()] == ["Ann"]
        assert actor.state.requests() == 1
        bob2 = await ask(actor, "Bob")  # the name and the seat id are free again
        assert bob2.seat_id == 1
        await actor.call(Approve(type="approve", secret=secret, seat_id=ann.seat_id or 0))
        await actor.call(Approve(type="approve", secret=secret, seat_id=1))
        await actor.call(Start(type="start", secret=secret))
        assert await replayed_seats(actor, storage, tables) == seats_of(actor)
        stored = await storage.load(actor.id)
        assert stored is not None
        copy = TableActor(stored.table, storage, tables.settings)
        copy.load(stored)
        assert views(copy) == views(actor)

    on_lobby(sqlite_url, body)
