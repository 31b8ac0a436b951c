"""Crash-proof: a real ``guts serve`` (uvicorn, in a subprocess) killed with SIGKILL at
random points of real sessions, on SQLite and on PostgreSQL, then started again.

People play over real websockets alongside bots, and tables of bots play on by
themselves, so the kill lands in the middle of deals. After each kill: every action a
client was told was accepted (an ``ack``) is in the database; the stored record replays;
and once the server is back, every table it rebuilt equals a fresh replay of its stored
commands (the summary, every person's view, the spectator's view), its ledger holds, and
the people resume their seats with their tokens and play on. One of the tables is a
night of dealer's choice, so kills land in its games and between them, while a game is
chosen.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WAIT, NullStorage, Server
from websockets.sync.client import ClientConnection

from guts.catalog import replay_record
from guts.night import Night
from guts.server.actor import TableActor
from guts.server.storage import Storage, StoredTable


class Person:
    """A player at a real websocket, answering every decision at random."""

    def __init__(self, server: Server, table_id: str, nickname: str, rng: random.Random):
        self.table_id, self.nickname, self.rng = table_id, nickname, rng
        self.token = ""
        self.seat: int | None = None
        self.client_seq = 0
        self.acked: dict[int, int] = {}  # client_seq -> table seq
        self.decision: dict[str, Any] | None = None
        self.ws = self._connect(server)
        self.send({"type": "join", "nickname": nickname})
        welcome = self.until("welcome")
        self.token = welcome["token"]

    def _connect(self, server: Server) -> ClientConnection:
        self._open = contextlib.ExitStack()
        return self._open.enter_context(server.socket(self.table_id))

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
        if frame["type"] == "event":
            self.decision = frame["decision"]
        elif frame["type"] == "snapshot":
            self.seat = frame["you"]["seat"] if frame["you"] else None
            pending = (frame["game"] or {}).get("pending") or []
            self.decision = pending[0] if pending else None
        return frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame

    def resume(self, server: Server) -> dict[str, Any]:
        self.ws = self._connect(server)
        self.send({"type": "resume", "token": self.token})
        return self.until("snapshot")

    def play(self, moves: int) -> None:
        """Answer ``moves`` decisions (waiting for each), each acknowledged."""
        for _ in range(moves):
            while self.decision is None:
                self.receive()
            self.client_seq += 1
            action = self.rng.choice(self.decision["actions"])
            self.send(
                {
                    "type": "act",
                    "seat": self.decision["seat"],
                    "action": action,
                    "client_seq": self.client_seq,
                }
            )
            self.decision = None
            while True:
                frame = self.receive()
                if frame.get("acked") == self.client_seq:  # its event frame
                    self.acked[self.client_seq] = frame["seq"]
                    break
                if frame["type"] == "error":  # a decision that had passed: wait for the next
                    self.client_seq -= 1
                    break

    def close(self) -> None:
        self._open.close()


def load(database: str, table_id: str) -> StoredTable:
    async def read() -> StoredTable:
        storage = await Storage.open(database)
        try:
            stored = await storage.load(table_id)
        finally:
            await storage.close()
        assert stored is not None
        return stored

    return asyncio.run(read())


REPLAYED: dict[tuple[str, int], TableActor] = {}


def fresh(stored: StoredTable, seq: int | None = None) -> TableActor:
    """The table as a replay of its first ``seq`` stored commands makes it (checked:
    every session's ledger adds up and its engine record replays)."""
    actions = stored.actions if seq is None else stored.actions[:seq]
    known = REPLAYED.get((stored.table.id, len(actions)))
    if known is not None:
        return known
    actor = TableActor(stored.table, NullStorage(), None)  # type: ignore[arg-type]
    actor.load(StoredTable(stored.table, stored.seats, actions))
    actor.check()  # the ledger of every session adds up
    for session in actor.state.sessions:
        record = json.loads(json.dumps(session.record()))
        again = Night.replay(record) if isinstance(session, Night) else replay_record(record)
        assert again.events == session.events
    REPLAYED[stored.table.id, len(actions)] = actor
    return actor


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


PERSON_TABLES = [
    ("two-card-guts", {"continue-after-empty": "yes"}),
    ("jacks-or-better", {}),
    ("three-five-seven", {}),
    (
        "dealers-choice",
        {"games": "two-card-guts,three-five-seven,jacks-or-better,bourre", "cap": "3"},
    ),  # a night: the kills land in its games and choices
]
BOT_TABLES = [("bourre", {"max-deals": "60"}), ("hi-lo-guts", {"max-deals": "60"})]


def crash_and_recover(database: str, logs: Path, seed: int, kills: int = 2) -> None:
    server = Server(database, logs)
    try:
        _crash_and_recover(server, database, random.Random(seed), kills)
    finally:
        server.stop()


def _crash_and_recover(server: Server, database: str, rng: random.Random, kills: int) -> None:
    server.start()
    people: list[Person] = []
    bot_tables = []
    for preset, options in PERSON_TABLES:
        created = server.post(
            "/api/tables", {"preset": preset, "options": options, "bots": 3, "auto_approve": True}
        )
        person = Person(server, created["table_id"], "Jo", rng)
        with server.socket(created["table_id"]) as host:
            host.send(json.dumps({"type": "resume"}))
            host.send(json.dumps({"type": "start", "secret": created["host_secret"]}))
            while json.loads(host.recv(timeout=WAIT))["type"] != "event":
                pass
        people.append(person)
    for preset, options in BOT_TABLES:
        created = server.post(
            "/api/tables",
            {"preset": preset, "options": options, "bots": 4, "bot": "random", "start": True},
        )
        bot_tables.append(created["table_id"])
    for _ in range(kills):
        for person in people:  # a random point of each person's session ...
            person.play(rng.randint(1, 12))
        server.kill()  # ... while the bot tables play on
        for person in people:
            person.close()
            stored = load(database, person.table_id)
            fresh(stored)  # the record replays, whatever point the kill landed on
            for client_seq, seq in person.acked.items():  # nothing acknowledged was lost
                payload = stored.actions[seq - 1].payload
                assert (payload["kind"], payload["client_seq"]) == ("act", client_seq)
        server.start()
        assert server.get("/healthz")["broken"] == []
        for table_id in [p.table_id for p in people] + bot_tables:
            summary = server.get(f"/api/tables/{table_id}")
            rebuilt = fresh(load(database, table_id), summary["seq"])
            assert as_json(rebuilt.summary()) == summary
            if isinstance(rebuilt.session, Night):  # every chip of the night is there
                table = rebuilt.session.table
                chips = sum(s.stack for s in table.seats) + sum(table.places.values())
                assert chips == sum(seat.bought for seat in rebuilt.state.seats.values())
            with server.socket(table_id) as spectator:
                spectator.send(json.dumps({"type": "resume"}))
                snapshot = json.loads(spectator.recv(timeout=WAIT))
            at = fresh(load(database, table_id), snapshot["seq"])
            assert at.session is not None
            assert snapshot["game"] == as_json(at.session.public_view())
        for person in people:  # each takes the seat back and sees what a replay shows it
            snapshot = person.resume(server)
            at = fresh(load(database, person.table_id), snapshot["seq"])
            assert at.session is not None and person.seat is not None
            assert snapshot["game"] == as_json(at.session.view(person.seat))
    for person in people:
        person.play(1)  # and plays on
        person.close()
    server.kill()


@pytest.fixture
def logs(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "server.log"
    yield path


def test_sigkill_on_sqlite_loses_nothing(sqlite_url: str, logs: Path) -> None:
    crash_and_recover(sqlite_url, logs, seed=1)


def test_sigkill_on_postgresql_loses_nothing(postgres_url: str, logs: Path) -> None:
    crash_and_recover(postgres_url, logs, seed=2)
