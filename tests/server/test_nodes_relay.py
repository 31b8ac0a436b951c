"""The relay between nodes over a real Redis, in one process: a client linked to a table
of another node gets that node's frames in order; a frame lost on the way, or an owner
that nobody hears, hangs the client up (to reconnect and resume), never a frame skipped."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

import pytest
from nodes_helpers import find_redis

from guts.server.actor import Client, Settings
from guts.server.protocol import Join, Resume
from guts.server.relay import Relay
from guts.server.storage import Storage
from guts.server.tables import Tables


@pytest.fixture
def redis_url() -> str:
    return find_redis()


class Watcher(Client):
    """A client that keeps its frames and says when it was hung up."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []
        self.hung_up = asyncio.Event()
        self.arrived = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        self.frames.append(message)
        self.arrived.set()

    def hang_up(self, code: int = 1012) -> None:
        self.closing = code
        self.hung_up.set()

    async def next_of(self, kind: str) -> dict[str, Any]:
        while True:
            found = [frame for frame in self.frames if frame["type"] == kind]
            if found:
                return found[-1]
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 10)


async def two_relays(redis_url: str, tables: Tables) -> tuple[Relay, Relay]:
    owner = Relay(redis_url, f"owner-{secrets.token_hex(4)}", tables.actors.get)
    other = Relay(redis_url, f"other-{secrets.token_hex(4)}", lambda _: None)
    await owner.start()
    await other.start()
    return owner, other


def test_a_linked_client_joins_and_gets_its_frames(redis_url: str, tmp_path: Path) -> None:
    async def run() -> None:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'g.db'}")
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        actor, _ = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        owner, other = await two_relays(redis_url, tables)
        try:
            watcher = Watcher()
            link = other.link(actor.id, owner.node)
            link.attach(watcher)
            link.post(Join(type="join", nickname="Sam"), watcher)
            welcome = await watcher.next_of("welcome")
            assert welcome["nickname"] == "Sam"
            assert (await watcher.next_of("snapshot"))["you"]["nickname"] == "Sam"
            seated = await actor.query(
                lambda: [seat.nickname for seat in actor.state.seats.values()]
            )
            assert seated == ["Sam"]
            link.detach(watcher)
            for _ in range(100):  # the owner hears of the detach, in order, after the join
                if not owner.remotes:
                    break
                await asyncio.sleep(0.02)
            assert not owner.remotes
            assert not watcher.hung_up.is_set()
        finally:
            await owner.close()
            await other.close()
            await tables.close()
            await storage.close()

    asyncio.run(run())


def test_a_frame_lost_on_the_way_hangs_the_client_up(redis_url: str, tmp_path: Path) -> None:
    async def run() -> None:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'g.db'}")
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        actor, _ = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        owner, other = await two_relays(redis_url, tables)
        try:
            watcher = Watcher()
            link = other.link(actor.id, owner.node)
            link.attach(watcher)
            link.post(Resume(type="resume"), watcher)
            await watcher.next_of("snapshot")
            ((remote, _),) = owner.remotes.values()
            remote.sent += 1  # as if the next frame had been published and lost
            link.post(Join(type="join", nickname="Sam"), watcher)
            await asyncio.wait_for(watcher.hung_up.wait(), 10)
            assert watcher.closing == 1012
            assert [frame["type"] for frame in watcher.frames] == ["snapshot"]  # none after
        finally:
            await owner.close()
            await other.close()
            await tables.close()
            await storage.close()

    asyncio.run(run())


def test_a_client_of_an_owner_nobody_hears_is_hung_up(redis_url: str, tmp_path: Path) -> None:
    async def run() -> None:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'g.db'}")
        tables = Tables(storage)
        owner, other = await two_relays(redis_url, tables)
        try:
            watcher = Watcher()
            other.link("some-table", f"dead-{secrets.token_hex(4)}").attach(watcher)
            await asyncio.wait_for(watcher.hung_up.wait(), 10)
            assert not other.linked
        finally:
            await owner.close()
            await other.close()
            await storage.close()

    asyncio.run(run())


def test_a_relay_that_loses_redis_hangs_its_clients_up_and_comes_back(
    redis_url: str, tmp_path: Path
) -> None:
    """Redis cuts the relay's connections (as a restart of Redis would): every linked
    client is hung up (frames may have been lost), and once subscribed again the relay
    links new clients as before."""
    import redis as redis_py

    async def run() -> None:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'g.db'}")
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        actor, _ = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        owner, other = await two_relays(redis_url, tables)
        try:
            watcher = Watcher()
            link = other.link(actor.id, owner.node)
            link.attach(watcher)
            link.post(Resume(type="resume"), watcher)
            await watcher.next_of("snapshot")
            admin = redis_py.Redis.from_url(redis_url)
            mine = [client["id"] for client in admin.client_list()
                    if client.get("name") == f"guts-node-{other.node}"]  # fmt: skip
            assert mine
            for client_id in mine:
                admin.client_kill_filter(_id=client_id)
            admin.close()
            await asyncio.wait_for(watcher.hung_up.wait(), 20)
            again = Watcher()
            for _ in range(200):  # subscribed again: a new client is linked and served
                if other._listening.is_set():
                    link.attach(again)
                    link.post(Resume(type="resume"), again)
                    try:
                        await asyncio.wait_for(again.next_of("snapshot"), 1)
                        break
                    except TimeoutError:
                        link.detach(again)
                await asyncio.sleep(0.1)
            assert again.frames and again.frames[-1]["type"] == "snapshot"
        finally:
            await owner.close()
            await other.close()
            await tables.close()
            await storage.close()

    asyncio.run(run())
