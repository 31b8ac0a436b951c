"""Several nodes hold the address limits together: an address's websockets and the tables
it opens are counted in the nodes' Redis, so that N nodes behind a proxy do not give it
N times the limit; a killed node's counts stop counting; without Redis a node keeps its
own count (docs/security.md, Limits)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from nodes_helpers import NodeServer, find_redis
from serve_helpers import free_port
from server_helpers import WAIT
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from guts.server.limits import AddressBook, Limits
from guts.server.relay import alive_key
from guts.server.shared_limits import SharedCounts

redis_asyncio = pytest.importorskip("redis.asyncio")


@pytest.fixture
def redis_url() -> str:
    return find_redis()


@asynccontextmanager
async def books(
    url: str, limits: Limits, nodes: int = 2
) -> AsyncIterator[tuple[list[AddressBook], object]]:
    """``nodes`` address books sharing ``url``'s Redis as live nodes of their own."""
    client = redis_asyncio.Redis.from_url(url)
    made = []
    for _ in range(nodes):
        node = secrets.token_hex(6)
        await client.set(alive_key(node), b"1", px=60_000)
        book = AddressBook(limits)
        book.shared = SharedCounts(client, node)
        made.append(book)
    try:
        yield made, client
    finally:
        for book in made:
            assert book.shared is not None
            await client.delete(alive_key(book.shared.node))
        await client.aclose()


def address() -> str:
    """An address of this test alone (the Redis may be shared with other tests)."""
    return f"198.51.100.{secrets.randbelow(250)}-{secrets.token_hex(4)}"


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def test_an_address_holds_the_limit_over_all_the_nodes_together(redis_url: str) -> None:
    async def test() -> None:
        async with books(redis_url, Limits(connections=3)) as ((one, two), _):
            who = address()
            assert [await one.connect(who), await one.connect(who)] == [True, True]
            assert await two.connect(who)
            assert not await two.connect(who)  # three held: two here, one there
            assert not await one.connect(who)
            assert one.open[who] == 2 and two.open[who] == 1  # a refusal counts nothing
            await one.disconnect(who)
            assert await two.connect(who)  # a freed place is free at any node
            assert await one.connect(address())  # other addresses are not touched

    run(test)


def test_a_dead_node_s_websockets_stop_counting(redis_url: str) -> None:
    async def test() -> None:
        async with books(redis_url, Limits(connections=2)) as ((one, two), client):
            who = address()
            assert await one.connect(who) and await one.connect(who)
            assert not await two.connect(who)
            assert one.shared is not None
            await client.delete(alive_key(one.shared.node))  # type: ignore[attr-defined]
            assert await two.connect(who) and await two.connect(who)
            assert not await two.connect(who)

    run(test)


def test_tables_a_minute_are_counted_over_all_the_nodes(redis_url: str) -> None:
    async def test() -> None:
        async with books(redis_url, Limits(tables_per_minute=3)) as ((one, two), _):
            who = address()
            answers = [await book.may_open_table(who) for book in (one, two, one, two, one)]
            assert answers == [True, True, True, False, False]
            assert await two.may_open_table(address())

    run(test)


def test_no_limit_means_none_at_any_node(redis_url: str) -> None:
    async def test() -> None:
        limits = Limits(connections=0, tables_per_minute=0)
        async with books(redis_url, limits) as ((one, two), _):
            who = address()
            assert all([await one.connect(who) for _ in range(5)])
            assert all([await two.may_open_table(who) for _ in range(5)])

    run(test)


def test_without_redis_a_node_keeps_its_own_count(caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        gone = redis_asyncio.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0",
                                            socket_connect_timeout=1)  # fmt: skip
        book = AddressBook(Limits(connections=2, tables_per_minute=1))
        book.shared = SharedCounts(gone, "lonely")
        who = address()
        assert [await book.connect(who) for _ in range(3)] == [True, True, False]
        await book.disconnect(who)
        assert await book.connect(who)
        assert [await book.may_open_table(who) for _ in range(2)] == [True, False]
        await gone.aclose()

    with caplog.at_level(logging.WARNING, logger="guts.server"):
        run(test)
    assert "Redis did not answer" in caplog.text


def test_two_real_nodes_refuse_the_third_websocket_of_an_address(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    started = []
    for name in ("a", "b"):
        node = NodeServer(postgres_url, tmp_path / f"node-{name}.log", redis_url, 1.5)
        node.extra += ["--max-connections-per-address", "2"]
        node.start()
        started.append(node)
    stack = contextlib.ExitStack()
    try:
        a, b = started
        body = {"preset": "two-card-guts", "options": {}, "buy_in": 50, "bots": 0}
        table_id = a.post("/api/tables", body)["table_id"]

        def socket(node: NodeServer) -> ClientConnection:
            url = f"ws://127.0.0.1:{node.port}/ws/{table_id}"
            return stack.enter_context(connect(url, open_timeout=WAIT))

        def admitted(node: NodeServer) -> ClientConnection | None:
            """A websocket at ``node`` if the address may hold one more, else None."""
            try:
                ws = socket(node)
                ws.send(json.dumps({"type": "resume"}))  # answered, either way
                if json.loads(ws.recv(timeout=WAIT)).get("code") != "rate-limited":
                    return ws
                ws.close()
            except (InvalidStatus, ConnectionClosed):
                pass
            return None

        held = [socket(a), socket(b)]  # counted before the handshake ends
        assert admitted(a) is None and admitted(b) is None
        held.pop().close()
        deadline = time.monotonic() + WAIT
        again = admitted(a)
        while again is None and time.monotonic() < deadline:  # b's close, told to Redis
            time.sleep(0.1)
            again = admitted(a)
        assert again is not None, "a place freed at one node was not free at the other"
    finally:
        stack.close()
        for node in started:
            node.stop()
