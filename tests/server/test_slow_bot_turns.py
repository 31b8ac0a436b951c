"""A slow bot's choice is made in a thread while its table goes on taking commands: a
command that comes meanwhile is committed at once, in turn, and the choice is played
only if the table is where it was when the bot was asked (a paused table plays nothing;
a table rebuilt meanwhile asks again, and replays to the same state)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from server_helpers import bot_table, settle

from guts.server.actor import Settings, TableActor
from guts.server.protocol import Pause
from guts.server.storage import Storage
from guts.server.tables import Tables


def declarations(actor: TableActor) -> int:
    session = actor.session
    assert session is not None
    return sum(1 for event in session.events if event.kind == "declared")


async def while_thinking(actor: TableActor) -> None:
    """Wait until a bot of ``actor`` is choosing in a thread."""
    for _ in range(10_000):
        if await actor.query(lambda: actor.thinking):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("no bot chose in a thread")


async def thought(actor: TableActor) -> None:
    """Wait until the bot's thread handed its choice in (and the table took it)."""
    for _ in range(100_000):
        if not await actor.query(lambda: actor.thinking):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot's thread never handed its choice in")


async def until_played(actor: TableActor, count: int) -> None:
    """Wait until the table holds ``count`` declarations (the bots may think for long on
    a busy machine: a generous deadline, not a measure of speed)."""
    deadline = time.monotonic() + 300
    while await actor.query(lambda: declarations(actor)) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"fewer than {count} declarations were played")
        await asyncio.sleep(0.01)


def run(sqlite_url: str, body: object) -> None:
    async def main() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        try:
            await body(tables, storage)  # type: ignore[operator]
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(main())


UNSHIPPED = {"ante": "2"}
"""Options no solution is shipped for: the six bots' first choice is a solve of seconds
(the default rules' one is read from the package at once)."""


@pytest.fixture(autouse=True)
def unsolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve cache of the test's own: the bots' first choice solves for six."""
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path / "cache"))


def test_a_pause_while_a_bot_solves_is_committed_at_once_and_the_bot_waits(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage) -> None:
        actor, secret = await bot_table(tables, "two-card-guts", 6, UNSHIPPED, kind="equilibrium")
        await while_thinking(actor)
        await actor.call(Pause(type="pause", secret=secret))
        assert await actor.query(lambda: actor.thinking)  # the pause did not wait for it
        paused_at = actor.seq
        await thought(actor)
        assert await actor.query(lambda: (actor.seq, declarations(actor))) == (paused_at, 0)
        await actor.call(Pause(type="pause", secret=secret, paused=False))
        await until_played(actor, 1)  # the choice made while paused is played now

    run(sqlite_url, body)


def test_a_choice_for_a_table_rebuilt_meanwhile_is_dropped_and_asked_again(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage) -> None:
        actor, secret = await bot_table(tables, "two-card-guts", 6, UNSHIPPED, kind="equilibrium")
        await while_thinking(actor)
        before = await actor.query(lambda: actor.session)
        stored = await storage.load(actor.id)  # nothing is committed while the bot thinks
        assert stored is not None
        await actor.query(lambda: actor.load(stored))  # a rebuild, between two commands
        await thought(actor)
        assert await actor.query(lambda: actor.session) is not before
        await until_played(actor, 6)  # the bots play on
        await actor.call(Pause(type="pause", secret=secret))
        await settle(actor)
        stored = await storage.load(actor.id)
        assert stored is not None
        copy = TableActor(stored.table, storage)
        copy.load(stored)
        assert copy.seq == actor.seq
        assert copy.session is not None and actor.session is not None
        assert copy.session.events == actor.session.events

    run(sqlite_url, body)
