"""Helpers shared by the server tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from serve_helpers import WAIT, ServeProcess
from websockets.sync.client import ClientConnection, connect

from guts.server.actor import Client, TableActor
from guts.server.protocol import SERVER, AddBot, Start
from guts.server.state import TableState
from guts.server.storage import Storage
from guts.server.tables import Tables


class Recorder(Client):
    """A client that keeps every frame, as the JSON text a websocket would carry, checking
    each against the protocol's server models."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        frame = json.loads(json.dumps(message))
        SERVER.validate_python(frame)
        self.frames.append(frame)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == kind]


class Clock:
    """A clock the tests move by hand (the action clocks read it)."""

    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


class NullStorage:
    """A storage that keeps nothing (for actors rebuilt from a record to try things on)."""

    def __init__(self, stored: Any = None) -> None:
        self.stored = stored
        self.appended: list[Any] = []

    async def append(self, table_id: str, action: Any, **_: Any) -> None:
        self.appended.append(action)

    async def load(self, table_id: str) -> Any:
        return self.stored


async def whole_night(storage: Storage, table_id: str) -> TableState:
    """The table's night as its stored record builds it, every session kept (the table
    in play keeps only its session in play)."""
    stored = await storage.load(table_id)
    assert stored is not None
    return TableState.replay(stored, keep=True)


def _busy(actor: TableActor) -> bool:
    step = actor.next_step()
    return actor.queued > 0 or (step is not None and step < 1)


async def settle(actor: TableActor, rounds: int = 100_000) -> None:
    """Wait until the table has nothing left to do by itself (bots, deals, stops) but
    what it would do after a pause of a second or more (the tests' "later": a deal
    delay of an hour, a person's action clock)."""
    for _ in range(rounds):
        if not await actor.query(lambda: _busy(actor)):
            return
        await asyncio.sleep(0)
    raise AssertionError(f"table {actor.id} is still busy after {rounds} rounds")


async def bot_table(
    tables: Tables,
    preset: str,
    bots: int = 4,
    options: dict[str, str] | None = None,
    *,
    kind: str = "random",
    start: bool = True,
) -> tuple[TableActor, str]:
    """A table of ``bots`` bots (started, unless not ``start``) and its host secret."""
    actor, secret = await tables.create(preset, dict(options or {}), 50, auto_approve=True)
    for _ in range(bots):
        await actor.call(AddBot(type="add_bot", secret=secret, bot=kind))  # type: ignore[arg-type]
    if start:
        await actor.call(Start(type="start", secret=secret))
    return actor, secret


def sit(actor: TableActor, client: Client, seat_id: int | None) -> None:
    """Attach ``client`` as the holder of lobby seat ``seat_id`` (None: a spectator), as
    a resumed connection would be, without a snapshot."""
    client.seat_id = seat_id
    client.ready = True
    actor.clients.add(client)


def views(actor: TableActor) -> list[Any]:
    """Every seat's view and the public view of the table's session."""
    session = actor.session
    assert session is not None
    return [*(session.view(s) for s in range(len(session.table.names))), session.public_view()]


class Server(ServeProcess):
    """``guts serve`` in a subprocess (:class:`ServeProcess`), with quick bots."""

    def stop(self) -> None:
        """Kill the server if it runs (after a failed test: no server is left behind)."""
        self.kill()

    def get(self, path: str) -> Any:
        response = httpx.get(self.url + path, timeout=WAIT)
        response.raise_for_status()
        return response.json()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        response = httpx.post(self.url + path, json=body, timeout=WAIT)
        assert response.status_code == 201, response.text
        return response.json()

    def socket(self, table_id: str) -> ClientConnection:
        """A websocket to the table that reads every frame as it comes, read or not (no
        ``max_queue``): with frames left unread it would stop reading, and then not see
        the server's answer to its close until its close timeout (seconds, each)."""
        url = f"ws://127.0.0.1:{self.port}/ws/{table_id}"
        return connect(url, open_timeout=WAIT, max_queue=None)
