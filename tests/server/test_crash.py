"""Crash-proof: a real ``guts serve`` (uvicorn, in a subprocess) killed with SIGKILL at
random moments of real sessions, on SQLite and on PostgreSQL, then started again.

People play over real websockets, each in a thread of their own, alongside bots, and
tables of bots play on by themselves; the server is killed after a random delay, not
after anything in particular: actions are in flight, deals half dealt. After each kill:
the stored record replays, only grows (what was there before the last kill still is),
and holds every action a client was told was accepted (an ``ack``), every rebuy and
every leave a client saw. Once the server is back (its tables paused by their hosts
so that they stand still while they are looked at): every table equals a fresh replay
of its stored record (the summary, the spectator's view, every person's view when they
resume with their device token, and every seat's view, the bots' included, of the replay
of the record as it stood at the kill); every chip is there (what was bought in, buy-ins,
rebuys and top-ups, equals the stacks, the pot, the bets of a betting round, the reserve
and what is set aside, plus the cash-outs, by the host's ledger and the spectator's view);
then the people play on.
One of the tables is a night of dealer's choice, so kills land in its games and between
them, while a game is chosen.

Each run draws its own seed (``GUTS_CRASH_SEED`` sets it) for the kills' delays and the
people's choices; a failure names the seed and where it happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import WAIT, NullStorage, Server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from guts.catalog import replay_record
from guts.night import Night
from guts.server.actor import TableActor
from guts.server.ledger import ledger_rows
from guts.server.state import TableState
from guts.server.storage import ActionRow, Storage, StoredTable

THINK = (0.01, 0.08)
"""How long a person thinks before each decision (seconds, drawn at random)."""
KILLS = 2
"""How many times each run kills the server: twice (the second kill lands on a server
that rebuilt its tables from the record), four times with ``-m slow``."""
DELAY = (0.05, 0.8)
"""How long the server plays after a restart before it is killed (drawn at random)."""


class Person:
    """A player at a real websocket, keeping what the server said it accepted: ``acked``
    (client sequence number -> table sequence number) and ``controls`` (table sequence
    number -> the kind of command of a rebuy or a leave the person was told of). Between
    restarts :meth:`start` plays in a thread, answering every decision at random."""

    def __init__(self, server: Server, table_id: str, nickname: str, rng: random.Random):
        self.table_id, self.nickname, self.rng = table_id, nickname, rng
        self.token = ""
        self.seat: int | None = None
        self.seat_id: int | None = None
        self.client_seq = 0
        self.acked: dict[int, int] = {}  # client_seq -> table seq
        self.controls: dict[int, str] = {}  # table seq -> the kind of a control's command
        self.decision: dict[str, Any] | None = None
        self.sent: int | None = None  # the client_seq of the act in flight
        self.playing = True  # False once the person left the table
        self._halt = threading.Event()
        self.log: deque[dict[str, Any]] = deque(maxlen=4)  # the last frames read
        self._thread: threading.Thread | None = None
        self.ws = self._connect(server)
        self.send({"type": "join", "nickname": nickname})
        welcome = self.until("welcome")
        self.token, self.seat_id = welcome["token"], welcome["seat_id"]

    def _connect(self, server: Server) -> ClientConnection:
        self._open = contextlib.ExitStack()
        return self._open.enter_context(server.socket(self.table_id))

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.log.append(frame)
        kind = frame["type"]
        if frame.get("acked") is not None:  # the event frame of the person's own act
            self.acked[frame["acked"]] = frame["seq"]
            if frame["acked"] == self.sent:
                self.sent = None
        if kind == "event":
            self.decision = frame["decision"]
        elif kind == "snapshot":
            self.seat = frame["you"]["seat"] if frame["you"] else None
            pending = (frame["game"] or {}).get("pending") or []
            self.decision = pending[0] if pending else None
        elif kind == "ack" and frame["client_seq"] == self.sent:
            if frame["seq"] is not None:
                self.acked[frame["client_seq"]] = frame["seq"]
            self.sent = None
        return frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame

    def resume(self, server: Server) -> dict[str, Any]:
        self.ws = self._connect(server)
        self.sent = None  # an act in flight when the connection dropped is stored or not
        self.send({"type": "resume", "token": self.token})
        return self.until("snapshot")

    def control(self, message: dict[str, Any], kind: str, seq: int) -> None:
        """Send a player's control (a rebuy, leaving) at a paused table, the command
        ``kind`` it makes as command ``seq``, and wait until everyone is told of it (a
        ``seats`` frame: the person may see frames of commands before it, and of
        connections, numbered as the last command)."""
        self.send(message)
        while True:
            frame = self.receive()
            assert frame["type"] != "error", frame
            if frame["type"] == "seats" and frame["seq"] == seq:
                break
        self.controls[seq] = kind

    def act(self, decision: dict[str, Any]) -> None:
        """Send an action of ``decision``, chosen at random (not waiting for the answer)."""
        self.client_seq += 1
        self.sent = self.client_seq
        self.send({"type": "act", "seat": decision["seat"], "client_seq": self.client_seq,
                   "action": self.rng.choice(decision["actions"])})  # fmt: skip

    def start(self) -> None:
        """Play in a thread until :meth:`stop` or until the connection drops."""
        self._halt.clear()
        self._thread = threading.Thread(target=self._play, name=self.nickname, daemon=True)
        self._thread.start()

    def _play(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            while not self._halt.is_set():
                if self.decision is not None and self.sent is None:
                    self._halt.wait(self.rng.uniform(*THINK))
                    self.act(self.decision)
                try:
                    frame = self.receive(timeout=0.05)
                except TimeoutError:
                    continue
                if frame["type"] == "error" and self.sent is not None:
                    self.sent = None  # refused: the decision had passed, wait for the next
                    if frame["code"] == "rate-limited":
                        self._halt.wait(0.2)  # the decision has not passed: try again
                    else:
                        self.decision = None

    def stop(self) -> None:
        """Stop playing (at once if the server was killed: the connection is gone)."""
        self._halt.set()
        if self._thread is not None:
            self._thread.join(WAIT)
            assert not self._thread.is_alive(), f"{self.nickname} does not stop playing"
            self._thread = None

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
    assert len(actions) == (len(stored.actions) if seq is None else seq)
    known = REPLAYED.get((stored.table.id, len(actions)))
    if known is not None:
        return known
    actor = replayed(StoredTable(stored.table, stored.seats, actions))
    for session in actor.state.sessions:
        record = json.loads(json.dumps(session.record()))
        again = Night.replay(record) if isinstance(session, Night) else replay_record(record)
        assert again.events == session.events
    REPLAYED[stored.table.id, len(actions)] = actor
    return actor


def replayed(stored: StoredTable) -> TableActor:
    """A table rebuilt from ``stored`` in memory, its ledgers checked."""
    actor = TableActor(stored.table, NullStorage(), None)  # type: ignore[arg-type]
    actor.state = TableState.replay(stored, keep=True)  # as load() does, every session kept
    actor.check()  # the ledger of every session adds up
    return actor


def every_view(actor: TableActor) -> Any:
    """Every seat's view (bots and people) and the public view of the session in play."""
    session = actor.session
    assert session is not None
    seats = range(len(session.table.names))
    return as_json([*(session.view(n) for n in seats), session.public_view()])


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


PERSON_TABLES: list[tuple[str, dict[str, str], list[str]]] = [
    ("two-card-guts", {"continue-after-empty": "yes"}, ["Jo"]),  # on credit
    ("jacks-or-better", {}, ["Jo", "Al"]),  # Al leaves: a cash-out
    ("three-five-seven", {"credit": "no"}, ["Jo"]),
    (
        "dealers-choice",
        {"games": "two-card-guts,three-five-seven,jacks-or-better,bourre", "cap": "3"},
        ["Jo"],
    ),  # a night: the kills land in its games and choices
]
BOT_TABLES = [("bourre", {"max-deals": "200"}), ("capped-guts", {"credit": "no"})]
"""Tables of bots alone (capped Guts sets chips aside beyond its cap)."""


@dataclass
class Watched:
    """A table of the run: its id, host secret and people, its record at the last kill,
    and its last command while paused."""

    table_id: str
    secret: str
    people: list[Person] = field(default_factory=list)
    record: tuple[ActionRow, ...] = ()
    seq: int = 0  # the last command, while the table is paused


def crash_and_recover(database: str, logs: Path, seed: int, kills: int = KILLS) -> None:
    server = Server(database, logs)
    trail = [f"seed {seed} (GUTS_CRASH_SEED={seed} reruns it)"]
    try:
        _crash_and_recover(server, database, random.Random(seed), trail, kills)
    except BaseException as error:
        error.add_note("; ".join(trail))
        raise
    finally:
        server.stop()


def _crash_and_recover(
    server: Server, database: str, rng: random.Random, trail: list[str], kills: int
) -> None:
    server.start()
    tables = []
    for preset, options, names in PERSON_TABLES:
        created = server.post("/api/tables", {"preset": preset, "options": options, "bots": 3,
                                              "auto_approve": True, "clock": 0})  # fmt: skip
        watched = Watched(created["table_id"], created["host_secret"])
        for name in names:
            own = random.Random(rng.randrange(2**32))  # each thread draws from its own
            watched.people.append(Person(server, watched.table_id, name, own))
        with server.socket(watched.table_id) as host:
            host.send(json.dumps({"type": "resume"}))
            host.send(json.dumps({"type": "start", "secret": watched.secret}))
            while json.loads(host.recv(timeout=WAIT))["type"] != "event":
                pass
        tables.append(watched)
    for preset, options in BOT_TABLES:
        created = server.post("/api/tables", {"preset": preset, "options": options, "bots": 4,
                                              "bot": "random", "start": True})  # fmt: skip
        tables.append(Watched(created["table_id"], created["host_secret"]))
    people = [person for table in tables for person in table.people]
    for person in people:
        person.start()
    for kill in range(1, kills + 1):
        delay = rng.uniform(*DELAY)
        trail.append(f"kill {kill} after {delay:.3f}s")
        time.sleep(delay)  # the people and the bots play: actions are in flight
        server.kill()
        for person in people:
            person.stop()
            person.close()
        for table in tables:
            after_the_kill(database, table)
        trail.append("restarted")
        server.start()
        health = server.get("/healthz")
        assert health["broken"] == 0 and health["loaded"] is True
        for table in tables:
            after_the_restart(server, database, table)
        for table in tables:  # the paused tables' people: a rebuy or a top-up, now and
            for person in table.people:  # then, and Al leaves (cashed out at the next deal
                if person.nickname == "Al" and person.playing:  # boundary)
                    table.seq += 1
                    person.control({"type": "leave"}, "leave", table.seq)
                    person.playing = False
                    person.close()
                elif person.playing and rng.random() < 0.5:
                    table.seq += 1
                    chips = {"type": "buy_chips", "amount": rng.randint(1, 100)}
                    person.control(chips, "chips", table.seq)
        play_on(server, tables)
    server.kill()


def after_the_kill(database: str, table: Watched) -> None:
    """The record as the kill left it: it replays, it kept what it had at the kill before,
    and it holds everything a client was told was accepted."""
    stored = load(database, table.table_id)
    assert stored.actions[: len(table.record)] == table.record, "the record lost commands"
    table.record = stored.actions
    fresh(stored)  # the record replays, whatever point the kill landed on
    for person in table.people:
        for client_seq, seq in person.acked.items():  # nothing acknowledged was lost
            payload = stored.actions[seq - 1].payload
            stored_as = (payload["kind"], payload["seat_id"], payload["client_seq"])
            assert stored_as == ("act", person.seat_id, client_seq), (
                f"{person.nickname}'s action {client_seq}, acknowledged as {seq}, is lost"
            )
        for seq, kind in person.controls.items():  # nor a rebuy or a leave anyone was told of
            payload = stored.actions[seq - 1].payload
            assert (payload["kind"], payload["seat_id"]) == (kind, person.seat_id), (
                f"{person.nickname}'s {kind}, told as {seq}, is lost"
            )


def after_the_restart(server: Server, database: str, table: Watched) -> None:
    """Pause the table, and check it against a fresh replay of its record."""
    with server.socket(table.table_id) as host:
        host.send(json.dumps({"type": "resume"}))
        host.send(json.dumps({"type": "pause", "secret": table.secret}))
        while True:  # the snapshot every client gets once the table is paused
            frame = json.loads(host.recv(timeout=WAIT))
            if frame["type"] == "snapshot" and frame["table"]["paused"]:
                break
            if frame["type"] == "error":  # a table that is over: it stands still anyway
                assert frame["code"] == "not-now", frame
                host.send(json.dumps({"type": "resume"}))
                frame = json.loads(host.recv(timeout=WAIT))
                assert frame["table"]["status"] == "over", frame
                break
    spectator = frame
    summary = server.get(f"/api/tables/{table.table_id}")
    bearer = {"authorization": f"Bearer {table.secret}"}
    ledger = httpx.get(f"{server.url}/api/tables/{table.table_id}/ledger", headers=bearer,
                       timeout=WAIT)  # fmt: skip
    assert ledger.status_code == 200, ledger.text
    seq = table.seq = summary["seq"]
    assert spectator["seq"] == seq, "the paused table moved"
    stored = load(database, table.table_id)
    at = fresh(stored, seq)
    assert as_json(at.summary()) == summary
    assert spectator["game"] == as_json(at.session.public_view() if at.session else None)
    # every seat's view, the bots' included, is the record's: the record the server
    # rebuilt the table from replays, at the kill's command, to what the record as the
    # kill left it replayed to (the server has no route to a bot's view: nobody may see it)
    kept = len(table.record)
    assert stored.actions[:kept] == table.record, "the restart changed the record"
    again = replayed(StoredTable(stored.table, stored.seats, stored.actions[:kept]))
    assert every_view(again) == every_view(fresh(stored, kept))  # (fresh: the kill's)
    check_chips(ledger.json()["players"], spectator["game"], at)
    for person in table.people:  # each takes the seat back and sees what a replay shows
        if not person.playing:
            continue
        snapshot = person.resume(server)
        assert snapshot["seq"] == seq and at.session is not None
        number = at.state.number(person.seat_id)
        assert snapshot["you"]["seat"] == number
        seen = at.session.public_view() if number is None else at.session.view(number)
        assert snapshot["game"] == as_json(seen), f"{person.nickname}'s view"


def check_chips(rows: list[dict[str, Any]], view: dict[str, Any], at: TableActor) -> None:
    """Every chip bought in (buy-ins, rebuys, top-ups) is on the table (stacks, the pot,
    a betting round's bets, the reserve, set aside), waiting for a table, or cashed out,
    by the host's ledger and the spectator's view (less the debts of a seat that left a
    table on credit); and the ledger is the replay's."""
    places = view["pot"] + view.get("reserve", 0) + view.get("aside", 0)
    if view.get("phase") == "betting":  # the round's bets, not yet in the pot (once it
        places += sum(view["bets"].values())  # is over the view still shows them)
    session = at.session
    assert session is not None
    assert places == sum(session.table.places.values())  # the view shows every place
    owed = sum(at.state.owed(seat) for seat in at.state.seats.values())
    bought = sum(row["buy_in"] for row in rows)
    there = sum(row["stack"] for row in rows) + places + sum(row["buy_out"] for row in rows)
    assert bought == there - owed, (
        f"{bought} chips bought in; {there} on the table and cashed out, {owed} owed: {rows}"
    )
    rules = session.night_rules if isinstance(session, Night) else session.rules
    if not rules.credit:  # table stakes: no debt, no marker
        assert owed == 0 and all(row["stack"] >= 0 for row in rows)
    chips = ("buy_in", "buy_out", "stack", "net")
    assert [{k: r[k] for k in chips} for r in rows] == [
        {k: r[k] for k in chips} for r in ledger_rows(at.state, {}, None)
    ]


def play_on(server: Server, tables: list[Watched]) -> None:
    """Resume every paused table; the people play on: each who had a decision waiting
    has it acknowledged, and someone acts."""
    people = [person for table in tables for person in table.people if person.playing]
    before = {person: len(person.acked) for person in people}
    waiting = {person for person in people if person.decision is not None}
    for table in tables:
        with server.socket(table.table_id) as host:
            host.send(json.dumps({"type": "resume"}))
            if json.loads(host.recv(timeout=WAIT))["table"]["paused"]:
                host.send(json.dumps({"type": "pause", "secret": table.secret,
                                      "paused": False}))  # fmt: skip
                while True:
                    frame = json.loads(host.recv(timeout=WAIT))
                    if frame["type"] == "snapshot" and not frame["table"]["paused"]:
                        break
    for table in tables:
        for person in table.people:
            if person.playing:
                person.start()
    deadline = time.monotonic() + WAIT
    while True:
        stuck = [p for p in waiting if len(p.acked) == before[p]]
        if not stuck and any(len(p.acked) > before[p] for p in people):
            return
        assert time.monotonic() < deadline, (
            f"nobody played on, or {stuck[0].nickname}'s decision is not acknowledged; "
            f"the last frames: {[json.dumps(frame)[:300] for frame in stuck[0].log]}"
            if stuck
            else "nobody played on"
        )
        time.sleep(0.01)


@pytest.fixture
def logs(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "server.log"
    yield path


def seed() -> int:
    given = os.environ.get("GUTS_CRASH_SEED")
    return int(given) if given else random.SystemRandom().randrange(2**32)


KILLED = pytest.mark.parametrize("kills", [KILLS, pytest.param(4, marks=pytest.mark.slow)])


@KILLED
def test_sigkill_on_sqlite_loses_nothing(sqlite_url: str, logs: Path, kills: int) -> None:
    crash_and_recover(sqlite_url, logs, seed(), kills)


@KILLED
def test_sigkill_on_postgresql_loses_nothing(postgres_url: str, logs: Path, kills: int) -> None:
    crash_and_recover(postgres_url, logs, seed(), kills)
