"""Chat belongs to approved seats and the host (spectators only where the table says
so); it is limited per seat over all its connections, a line is at most 500
characters, and a table keeps at most ``MAX_CHAT_LINES`` lines a night.

The audit: refused, kicked and never-approved joiners chatted (broadcast and stored),
and one token resumed on many sockets committed about 335 lines a second.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import Recorder

from guts.server import actor as actor_module
from guts.server.actor import CHAT_BURST, Settings, TableActor
from guts.server.protocol import (
    Approve,
    Chat,
    Join,
    Kick,
    ProtocolError,
    Resume,
    read_message,
)
from guts.server.storage import Storage
from guts.server.tables import Tables


def on_table(sqlite_url: str, body: Any, **clocks: int) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=False,
                                            clocks=clocks)  # fmt: skip
        try:
            await body(actor, secret, storage)
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(run())


async def joined(actor: TableActor, name: str) -> tuple[Recorder, str]:
    client = Recorder()
    actor.attach(client)
    await actor.call(Join(type="join", nickname=name), client)
    token = client.of("welcome")[0]["token"]
    return client, token


async def chat(actor: TableActor, client: Recorder, text: str, **extra: str) -> None:
    await actor.call(Chat(type="chat", text=text, **extra), client)


def refused(code: str) -> Any:
    return pytest.raises(ProtocolError, match=rf"^{code}:")


def test_only_approved_seats_and_the_host_chat(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage) -> None:
        ann, _ = await joined(actor, "Ann")
        eve, _ = await joined(actor, "Eve")
        watcher = Recorder()
        actor.attach(watcher)
        await actor.call(Resume(type="resume"), watcher)
        with refused("not-seated"):
            await chat(actor, eve, "let me in")  # a request, never approved
        with refused("not-seated"):
            await chat(actor, watcher, "hello")  # a spectator
        with refused("not-host"):
            await chat(actor, watcher, "I am the host", secret="guess")
        await actor.call(Approve(type="approve", secret=secret, seat_id=ann.seat_id or 0))
        await chat(actor, ann, "hi all")
        await chat(actor, watcher, "welcome", secret=secret)  # the host, with no seat
        await actor.call(Kick(type="kick", secret=secret, seat_id=ann.seat_id or 0))
        with refused("not-seated"):
            await chat(actor, ann, "you cannot kick me")
        lines = [(line["nickname"], line["text"]) for line in watcher.of("chat")]
        assert lines == [("Ann", "hi all"), ("Host", "welcome")]
        stored = await storage.load(actor.id)
        assert stored is not None
        assert [a.payload["text"] for a in stored.actions if a.kind == "chat"] == [
            "hi all", "welcome"]  # fmt: skip

    on_table(sqlite_url, body)


def test_spectators_chat_only_where_the_table_lets_them(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage) -> None:
        watcher = Recorder()
        actor.attach(watcher)
        await actor.call(Resume(type="resume"), watcher)
        assert watcher.of("snapshot")[0]["table"]["spectator_chat"] is True
        await chat(actor, watcher, "go Ann")
        assert watcher.of("chat")[-1]["nickname"] == "Spectator"

    on_table(sqlite_url, body, spectator_chat=1)


def test_chat_is_limited_per_seat_over_all_its_connections(sqlite_url: str) -> None:
    async def body(actor: TableActor, secret: str, storage: Storage) -> None:
        ann, token = await joined(actor, "Ann")
        await actor.call(Approve(type="approve", secret=secret, seat_id=ann.seat_id or 0))
        sockets = [ann]
        for _ in range(9):  # the same token resumed on many connections
            other = Recorder()
            actor.attach(other)
            await actor.call(Resume(type="resume", token=token), other)
            sockets.append(other)
        sent = refused_lines = 0
        for n in range(40):
            try:
                await chat(actor, sockets[n % len(sockets)], f"line {n}")
                sent += 1
            except ProtocolError as error:
                assert error.code == "rate-limited"
                refused_lines += 1
        assert sent <= CHAT_BURST + 1 and refused_lines >= 40 - CHAT_BURST - 1
        assert actor.state.chat_lines == sent

    on_table(sqlite_url, body)


def test_a_table_keeps_a_bounded_chat(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actor_module, "MAX_CHAT_LINES", 6)
    monkeypatch.setattr(actor_module, "CHAT_BURST", 100.0)

    async def body(actor: TableActor, secret: str, storage: Storage) -> None:
        ann, _ = await joined(actor, "Ann")
        await actor.call(Approve(type="approve", secret=secret, seat_id=ann.seat_id or 0))
        for n in range(6):
            await chat(actor, ann, f"line {n}")
        with refused("not-now"):
            await chat(actor, ann, "one more")
        assert actor.state.chat_lines == 6

    on_table(sqlite_url, body)


def test_a_chat_line_is_at_most_500_characters() -> None:
    assert read_message('{"type": "chat", "text": "%s"}' % ("x" * 500))
    with refused("invalid"):
        read_message('{"type": "chat", "text": "%s"}' % ("x" * 501))
