"""Load, soak and faults: simulated people at real websockets of several ``guts serve`` nodes.

The script starts a Redis of its own (``redis-server`` on a free port), a fresh
PostgreSQL database (``guts_load_<pid>`` on 127.0.0.1:5432) and ``--nodes`` real
``guts serve --redis`` subprocesses on the loopback; opens ``--tables`` tables over HTTP
(each on the next node in turn, which then owns it) and seats ``--players`` people spread
over them, each a websocket to a node picked at random (so about half of them are
relayed to the owner through Redis). Each person joins (the tables seat on join), the
first starts the game with the host secret, and from then on each answers every decision
of their seat with a random legal action: after a human-like pause (``--mode human``: a
few seconds, lognormal) or at once (``--mode flat-out``). An action carries the person's
``client_seq``; a dropped socket reconnects (to the next node) and resumes from the last
sequence number seen, and an action that was in flight is sent again with the same
number. Every person keeps a log of the actions the server told it were accepted
(``client_seq`` -> the table's ``seq``).

While it plays it measures accepted actions a second, the time from ``act`` to each
seat's receipt of that command (p50, p99, max; the acting seat's own echo included),
where the wait is (the script's own event-loop lag, and how long each node takes to
answer ``/healthz``: its event loop's lag), error frames, reconnects, and each node's
resident memory and open sockets over time
(progress lines on stderr). With ``--faults`` it injects, one every ``--fault-every``
seconds in turn: ``kill`` (SIGKILL of a node; the script waits until every table it
owned has another owner, then starts it again and sends it a share of the people, as a
proxy would spread them), ``redis`` (Redis stopped and started
again), ``pg`` (``pg_terminate_backend`` of every connection to the database) and
``resend`` (a few people drop their socket right after sending an action and send it
again once resumed). After each fault, and at the end, it checks from the database, in
a worker process: every table's record replays with the engine, its chips add up, its
ledger's nets and its pots sum to zero, every action a person was told was accepted is
stored at the sequence number it was told, none is stored twice, and none is stored that
its person was told nothing of (but the one in flight). It prints a summary (``--json``:
the result as JSON) and exits 1 if an invariant failed.

Bounded: a hard timeout (``--hard-timeout``) stops it whatever happens; it always kills
its subprocesses and drops its database.

    python benchmarks/load.py [--players 1000] [--tables 250] [--nodes 2] [--minutes 10]
                              [--mode human|flat-out] [--faults kill,redis,pg,resend]
                              [--fault-every 15] [--json] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import ctypes
import json
import math
import multiprocessing
import os
import random
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).parent))
from machine import cpu_model
from processes import cpu_seconds, free_port, quantile, rss_kib

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URLS = ("postgresql://root@127.0.0.1:5432/test", "postgresql://postgres@127.0.0.1:5432/test")
"""Where the fresh database is created from (``GUTS_TEST_POSTGRES_URL`` first)."""
PRESET = "two-card-guts"
FAULTS = ("kill", "redis", "pg", "resend")
CHECK_KEYS = ("after", "tables", "actions", "failures", "in_flight_stored")
"""What the result keeps of each check."""
PR_SET_PDEATHSIG = 1
STARTUP_S = 60.0
"""Seconds a node or Redis has to come up."""


# -- the processes ---------------------------------------------------------------------------


def dies_with_us(parent: int | None = None) -> None:
    """In a child as it starts: SIGKILL it when the thread that started it ends (the
    run's main thread, so the run leaves nothing behind however it ends); if its parent
    ``parent`` is gone already, exit now."""
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


async def started(*processes: Node | RedisServer) -> None:
    """Start the processes (here, in the main thread) and wait until each is ready (in
    threads, the event loop going on)."""
    for process in processes:
        process.spawn()
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(None, process.ready) for process in processes))


def wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port} after {seconds} s")


class RedisServer:
    """A ``redis-server`` of the run's own on a free port, which a fault may restart."""

    def __init__(self, folder: Path) -> None:
        self.port, self.folder = free_port(), folder
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def spawn(self) -> None:
        """Start it (from the main thread: see :func:`dies_with_us`)."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=dies_with_us,
        )  # fmt: skip

    def ready(self) -> None:
        wait_port(self.port, STARTUP_S)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class Node:
    """One ``guts serve --redis`` subprocess on a port of its own (the same port when it
    is started again after a kill: a new node, with a new id)."""

    def __init__(self, name: str, database: str, redis: str, folder: Path,
                 args: argparse.Namespace) -> None:  # fmt: skip
        self.name, self.database, self.redis, self.args = name, database, redis, args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"node-{name}.log"
        self.process: subprocess.Popen[str] | None = None
        self.id = ""
        self.starts = 0

    def spawn(self) -> None:
        """Start it (from the main thread: see :func:`dies_with_us`); :meth:`ready`
        waits for it."""
        deal_delay = 0.0 if self.args.mode == "flat-out" else self.args.deal_delay
        command = [self.args.server_python, "-m", "guts", "serve", "--port", str(self.port),
                   "--database", self.database, "--redis", self.redis,
                   "--lease-seconds", str(self.args.lease_seconds), "--bot-delay", "0",
                   "--deal-delay", str(deal_delay), "--max-connections-per-address", "0",
                   "--tables-per-minute", "0", "--expire-after", "0"]  # fmt: skip
        environment = {**os.environ, "PYTHONUNBUFFERED": "1",
                       "PYTHONPATH": str(ROOT / "src")}  # fmt: skip
        with self.log.open("a") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log,
                                            text=True, env=environment,
                                            preexec_fn=dies_with_us)  # fmt: skip

    def ready(self) -> None:
        """Wait until it says it serves, and ask its id."""
        assert self.process is not None and self.process.stdout is not None
        poll = select.poll()  # (not select(): the run's sockets number over a thousand)
        poll.register(self.process.stdout, select.POLLIN)
        line = self.process.stdout.readline() if poll.poll(STARTUP_S * 1000) else ""
        if not line.startswith("guts server ready"):
            raise RuntimeError(f"node {self.name} did not start: {line!r}; "
                               f"its log: {self.log.read_text()[-2000:]}")  # fmt: skip
        self.id = httpx.get(f"{self.url}/healthz", timeout=30).json()["node"]
        self.starts += 1

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        """SIGTERM (the node gives its leases up), SIGKILL if it lingers."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


async def admin_url() -> str:
    """The URL of a PostgreSQL server that answers, to create the run's database on."""
    given = os.environ.get("GUTS_TEST_POSTGRES_URL")
    problems = []
    for url in [given] if given else ADMIN_URLS:
        try:
            connection = await asyncpg.connect(url, timeout=5)
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            problems.append(f"{url}: {error}")
            continue
        await connection.close()
        return url
    raise RuntimeError(f"no PostgreSQL answers: {'; '.join(problems)}")


def with_database(url: str, name: str) -> str:
    return url.rsplit("/", 1)[0] + "/" + name


async def admin(url: str, statement: str) -> None:
    connection = await asyncpg.connect(url, timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


# -- the people ------------------------------------------------------------------------------


@dataclass
class Latencies:
    """From an ``act`` to each seat's receipt of the command it made: the acting seat's
    echo and every other seat's frame, matched by (table, seq) whichever comes first."""

    measuring: bool = False
    samples: list[float] = field(default_factory=list)
    window: list[float] = field(default_factory=list)
    acks: int = 0
    window_acks: int = 0
    by_table: dict[str, int] = field(default_factory=dict)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    early: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    """Receipts of a seq whose act's acknowledgement has not come yet (when received)."""

    def received(self, table: str, seq: int, now: float) -> None:
        if not self.measuring:
            return
        sent = self.sent.get((table, seq))
        if sent is None:
            self.early.setdefault((table, seq), []).append(now)
        else:
            self._add(now - sent)

    def acked(self, table: str, seq: int, sent: float) -> None:
        if not self.measuring:
            return
        self.acks += 1
        self.window_acks += 1
        self.by_table[table] = self.by_table.get(table, 0) + 1
        self.sent[(table, seq)] = sent
        for when in self.early.pop((table, seq), []):
            self._add(when - sent)

    def _add(self, value: float) -> None:
        self.samples.append(value)
        self.window.append(value)

    def prune(self, now: float) -> None:
        """Forget what is older than a minute (the commands that are not acts, whose
        receipts never match, and acts every seat has long received)."""
        self.sent = {key: sent for key, sent in self.sent.items() if now - sent < 60}
        self.early = {key: times for key, times in self.early.items() if now - times[0] < 60}


@dataclass
class Counters:
    errors: dict[str, int] = field(default_factory=dict)
    said: dict[str, str] = field(default_factory=dict)
    """The first message of each error code."""
    reconnects: int = 0
    duplicate_frames: int = 0
    gaps: int = 0
    resends: int = 0
    resends_applied_before: int = 0
    gave_up: int = 0
    connected: int = 0

    def error(self, code: str, message: str = "") -> None:
        self.errors[code] = self.errors.get(code, 0) + 1
        self.said.setdefault(code, message)


class Person:
    """One person at one table: joins, answers each decision of their seat after a pause,
    keeps the log of their accepted actions, and reconnects and resumes when dropped.

    One action in flight at a time, as a person's client: a decision that arrives while
    it is unanswered waits for its acknowledgement (the ``event`` frame with ``acked``,
    or an ``ack``) or its refusal (an ``error``)."""

    def __init__(self, crowd: Crowd, table: str, name: str, nickname: str, node: int) -> None:
        self.crowd, self.table, self.name, self.node = crowd, table, name, node
        self.nickname = nickname
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.seat_id: int | None = None
        self.last_seq = -1
        """The last table seq seen (events, seats, snapshots): where a resume starts."""
        self.last_event = -1
        """The seq of the last event frame or snapshot: an event at or before it is a
        frame delivered twice."""
        self.client_seq = 0
        self.decision: dict[str, Any] | None = None
        self.in_flight: tuple[int, dict[str, Any], float] | None = None
        """The unanswered act: its client_seq, the message, when it was first sent."""
        self.log: dict[int, int] = {}
        """client_seq -> the table's seq, as the server told."""
        self.refused: list[int] = []
        self.thinking = False
        self.drop_next = False  # the resend fault: drop the socket right after the next act
        self.resuming = False
        self.welcome: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # the connection

    async def connect(self) -> None:
        port = self.crowd.ports[self.node % len(self.crowd.ports)]
        self.ws = await connect(f"ws://127.0.0.1:{port}/ws/{self.table}", open_timeout=10,
                                max_size=2**22, compression=None, ping_interval=None)  # fmt: skip
        self.crowd.counters.connected += 1

    async def live(self) -> None:
        """Read frames until the run stops; reconnect and resume whenever dropped."""
        while True:
            ws = self.ws
            if ws is not None:
                with contextlib.suppress(ConnectionClosed):
                    async for message in ws:
                        self.handle(orjson.loads(message))
                self.ws = None
                self.crowd.counters.connected -= 1
            if self.crowd.stopping or not await self.reconnect():  # (before a welcome too)
                return

    async def reconnect(self) -> bool:
        """Connect to the next node until one answers, and resume (a minute at most)."""
        counters = self.crowd.counters
        counters.reconnects += 1
        self.resuming = True
        deadline = time.monotonic() + 60
        while not self.crowd.stopping:
            await asyncio.sleep(0.2 + self.crowd.rng.random() * 0.3)
            self.node += 1
            try:
                await self.connect()
            except (OSError, TimeoutError, InvalidHandshake):
                if time.monotonic() > deadline:
                    counters.gave_up += 1
                    return False
                continue
            if self.token is None:  # dropped before its welcome: ask again
                self.resuming = False
                self.send({"type": "join", "nickname": self.nickname})
            else:
                self.send({"type": "resume", "token": self.token,
                           "last_seq": self.last_seq if self.last_seq >= 0 else None})  # fmt: skip
            return True
        return False

    def send(self, message: dict[str, Any], then_drop: bool = False) -> None:
        if self.ws is not None:
            self.crowd.spawn(self._send(self.ws, orjson.dumps(message).decode(), then_drop))

    async def _send(self, ws: ClientConnection, text: str, then_drop: bool) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)
        if then_drop:  # gone between the action and its echo
            ws.transport.abort()

    # the protocol

    def handle(self, frame: dict[str, Any]) -> None:
        kind, now, crowd = frame["type"], time.perf_counter(), self.crowd
        if kind == "event":
            seq = frame["seq"]
            if seq <= self.last_event:  # (a ``seats`` frame may come first with its seq)
                crowd.counters.duplicate_frames += 1
            else:
                self._gap(seq)
                crowd.latencies.received(self.table, seq, now)
                self.last_seq = max(self.last_seq, seq)
                self.last_event = seq
            self.decision = frame["decision"]
            acked = frame.get("acked")
            if acked is not None and self.in_flight is not None and acked == self.in_flight[0]:
                self._accepted(seq)
        elif kind == "ack":
            if self.in_flight is not None and frame["client_seq"] == self.in_flight[0]:
                if frame["seq"] is None:  # an older number: cannot be, one is in flight
                    crowd.counters.error("ack-without-seq")
                    self.in_flight = None
                else:
                    crowd.counters.resends_applied_before += frame["duplicate"]
                    self._accepted(frame["seq"])
        elif kind == "error" and frame["code"] == "taken" and self.token is None:
            # a join asked again was stored the first time, its welcome lost: that seat's
            # token is gone with it, so ask for another (the first is played safe)
            crowd.counters.error("taken")
            self.nickname += "'"
            self.send({"type": "join", "nickname": self.nickname})
        elif kind == "error":
            crowd.counters.error(frame["code"], frame["message"])
            if self.in_flight is not None:
                self.refused.append(self.in_flight[0])
                self.in_flight = None
        elif kind == "snapshot":
            self._snapshot(frame)
        elif kind == "seats":
            self._gap(frame["seq"])
            self.last_seq = max(self.last_seq, frame["seq"])
        elif kind == "welcome":
            self.token, self.seat_id = frame["token"], frame["seat_id"]
            if not self.welcome.done():
                self.welcome.set_result(None)
        self._maybe_act()

    def _gap(self, seq: int) -> None:
        """Count a command this seat was never sent: each command reaches every seated
        connection as an event or a seats frame, so a seq beyond the next one (seen
        since the last snapshot) means frames went missing."""
        if self.last_seq >= 0 and seq > self.last_seq + 1 and self.token is not None:
            self.crowd.counters.gaps += 1

    def _snapshot(self, frame: dict[str, Any]) -> None:
        self.last_seq = self.last_event = frame["seq"]
        you = frame.get("you") or {}
        game = frame.get("game") or {}
        seat = you.get("seat")
        pending = [d for d in game.get("pending") or []
                   if seat is not None and d.get("seat") == seat]  # fmt: skip
        self.decision = pending[0] if pending else None
        if self.resuming:
            self.resuming = False
            if self.in_flight is not None:  # sent before the drop: send it again, same number
                self.crowd.counters.resends += 1
                self.send(self.in_flight[1])

    def _accepted(self, seq: int) -> None:
        assert self.in_flight is not None
        client_seq, _, sent = self.in_flight
        self.log[client_seq] = seq
        self.in_flight = None
        self.crowd.latencies.acked(self.table, seq, sent)

    def _maybe_act(self) -> None:
        if (self.in_flight is None and self.decision is not None and not self.thinking
                and not self.crowd.stopping and not self.resuming):  # fmt: skip
            self.thinking = True
            asyncio.get_running_loop().call_later(self.crowd.think(), self._thought)

    def _thought(self) -> None:
        self.thinking = False
        decision = self.decision
        if (self.in_flight is not None or decision is None or self.crowd.stopping
                or self.ws is None or self.resuming):  # fmt: skip
            return
        self.client_seq += 1
        self.decision = None
        message = {"type": "act", "seat": decision["seat"],
                   "action": self.crowd.rng.choice(decision["actions"]),
                   "client_seq": self.client_seq}  # fmt: skip
        self.in_flight = (self.client_seq, message, time.perf_counter())
        self.send(message, then_drop=self.drop_next)
        self.drop_next = False

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


class Crowd:
    """Every person of the run, what they share (the random source, the counters, the
    latencies) and the tasks they spawn."""

    def __init__(self, ports: list[int], mode: str, seed: int, pause: float) -> None:
        self.ports, self.mode, self.pause = ports, mode, pause
        self.rng = random.Random(seed)
        self.people: list[Person] = []
        self.latencies = Latencies()
        self.counters = Counters()
        self.stopping = False
        self.tasks: set[asyncio.Task[Any]] = set()

    def think(self) -> float:
        """A person's pause before answering: lognormal around ``pause`` seconds (a fifth
        of it to five times it: ``human``), or none (``flat-out``)."""
        if self.mode == "flat-out":
            return 0.0
        pause = self.rng.lognormvariate(math.log(self.pause), 0.6)
        return min(5 * self.pause, max(self.pause / 5, pause))

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def logs(self) -> dict[str, list[dict[str, Any]]]:
        """Each table's people's logs, for the check (JSON-able, for a worker process)."""
        tables: dict[str, list[dict[str, Any]]] = {}
        for person in self.people:
            tables.setdefault(person.table, []).append({
                "name": person.name, "seat_id": person.seat_id,
                "log": {str(k): v for k, v in person.log.items()},
                "in_flight": person.in_flight[0] if person.in_flight else None,
                "refused": list(person.refused),
            })  # fmt: skip
        return tables


async def create_table(http: httpx.AsyncClient, node: Node, buy_in: int) -> dict[str, Any]:
    """``POST /api/tables`` on ``node``, asked again (three times at most) when the
    connection fails under it (a kept-alive connection the node closed meanwhile): a
    table the first request may have opened anyway has nobody at it, and is not checked."""
    body = {"preset": PRESET, "buy_in": buy_in, "auto_approve": True, "clock": 30}
    for attempt in range(3):
        try:
            answer = await http.post(f"{node.url}/api/tables", json=body)
        except httpx.TransportError:
            if attempt == 2:
                raise
            continue
        answer.raise_for_status()
        created: dict[str, Any] = answer.json()
        return created
    raise AssertionError("unreachable")


async def seat_people(crowd: Crowd, nodes: list[Node], args: argparse.Namespace) -> dict[str, str]:
    """Open the tables (each on the next node: it owns it) and seat the people (each at a
    node picked at random); then start every table. Each table's id -> its creating node."""
    per_table = [args.players // args.tables + (i < args.players % args.tables)
                 for i in range(args.tables)]  # fmt: skip
    owners: dict[str, str] = {}
    gate = asyncio.Semaphore(16)

    async def open_one(index: int, http: httpx.AsyncClient) -> None:
        node = nodes[index % len(nodes)]
        async with gate:
            created = await create_table(http, node, args.buy_in)
            table = created["table_id"]
            owners[table] = node.id
            people = []
            for n in range(per_table[index]):
                person = Person(crowd, table, f"P{index}-{n}", f"Player {n}",
                                crowd.rng.randrange(len(nodes)))  # fmt: skip
                await person.connect()
                crowd.spawn(person.live())
                person.send({"type": "join", "nickname": person.nickname})
                await asyncio.wait_for(person.welcome, 60)
                people.append(person)
            crowd.people += people
            starts.append((people[0], created["host_secret"]))

    starts: list[tuple[Person, str]] = []
    async with httpx.AsyncClient(timeout=60) as http:
        await asyncio.gather(*(open_one(i, http) for i in range(args.tables)))
    for person, secret in starts:  # every table at once, once everyone is seated
        person.send({"type": "start", "secret": secret})
    return owners


# -- the faults ------------------------------------------------------------------------------


class Faults:
    """The faults of ``--faults``, injected one at a time in turn, and what each did."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.done: list[dict[str, Any]] = []
        self.kills = 0

    async def inject(self, kind: str) -> dict[str, Any]:
        began = time.monotonic()
        # at_s: seconds into the measured play
        report: dict[str, Any] = {"fault": kind, "at_s": round(began - self.run.began, 1)}
        try:
            report.update(await getattr(self, kind)())
        except Exception as error:  # the run goes on, and fails at the end
            report["failed"] = repr(error)
        report["took_s"] = round(time.monotonic() - began, 2)
        self.done.append(report)
        return report

    async def kill(self) -> dict[str, Any]:
        """SIGKILL a node; wait until each table it owned has another owner (the
        takeover), then start it again (a new node)."""
        run = self.run
        node = run.nodes[self.kills % len(run.nodes)]
        self.kills += 1
        owned = [row["table_id"] for row in await run.db.fetch(
            "SELECT table_id FROM leases WHERE owner = $1", node.id)]  # fmt: skip
        killed_id = node.id
        node.kill()
        killed = time.monotonic()
        deadline = killed + 4 * run.args.lease_seconds + 30
        left = len(owned)
        while time.monotonic() < deadline:
            left = await run.db.fetchval(
                "SELECT count(*) FROM leases WHERE table_id = ANY($1::text[]) AND owner = $2",
                owned, killed_id)  # fmt: skip
            if left == 0:
                break
            await asyncio.sleep(0.25)
        taken_s = time.monotonic() - killed
        await started(node)
        moved = self.spread(run.nodes.index(node))
        return {"node": node.name, "tables_owned": len(owned), "not_taken_over": left,
                "takeover_s": round(taken_s, 2), "people_moved": moved}  # fmt: skip

    def spread(self, node: int) -> int:
        """Send a share of the people to the node started again, as a proxy spreading
        connections would (else everyone stays on the node that survived, owner of every
        table, and nobody is relayed): each connected person elsewhere drops its socket
        and reconnects to it with a chance of one in the number of nodes."""
        run, moved = self.run, 0
        for person in run.crowd.people if run.crowd is not None else []:
            ws = person.ws
            if ws is None or run.crowd.rng.random() >= 1 / len(run.nodes):
                continue
            if person.node % len(run.nodes) != node:
                person.node = node - 1  # its reconnection goes to the next node: this one
                ws.transport.abort()
                moved += 1
        return moved

    async def redis(self) -> dict[str, Any]:
        """Stop Redis and start it again on its port (empty: no persistence)."""
        redis = self.run.redis
        redis.stop()
        await asyncio.sleep(1.0)
        await started(redis)
        return {}

    async def pg(self) -> dict[str, Any]:
        """Cut every connection the nodes hold to the database."""
        cut = await self.run.db.fetchval(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()) AS cut",
            self.run.database_name,
        )
        return {"connections_cut": cut}

    async def resend(self) -> dict[str, Any]:
        """A few people drop their socket right after their next action, and send it
        again once resumed."""
        run = self.run
        chosen = run.crowd.rng.sample(run.crowd.people, min(run.args.resenders,
                                                            len(run.crowd.people)))  # fmt: skip
        for person in chosen:
            person.drop_next = True
        await asyncio.sleep(run.args.lease_seconds)
        return {"people": len(chosen)}


# -- the check -------------------------------------------------------------------------------


Logs = dict[str, list[dict[str, Any]]]
"""Each table's people's logs (:meth:`Crowd.logs`)."""


def warm() -> None:
    """Import what a check needs (in the worker, before the first check is due)."""
    import guts.server.ledger
    import guts.server.state
    import guts.server.storage  # noqa: F401


def check_tables(database: str, logs: Logs, final: bool) -> dict[str, Any]:
    """Every table's record, read from the database, against the people's logs (run in a
    worker process: it replays every record with the engine). ``final``: play has
    stopped, so nothing may be stored that its person was not told of, in flight or not."""
    return asyncio.run(_check(database, logs, final))


async def _check(database: str, logs: Logs, final: bool) -> dict[str, Any]:
    from guts.errors import GutsError
    from guts.server.ledger import ledger_rows
    from guts.server.state import TableState
    from guts.server.storage import Storage

    report: dict[str, Any] = {"tables": 0, "actions": 0, "replay_failed": [],
                              "ledger_unbalanced": [], "lost": [], "twice": [],
                              "untold": [], "in_flight_stored": 0}  # fmt: skip
    storage = await Storage.open(database)
    try:
        for table_id, people in logs.items():
            stored = await storage.load(table_id)
            if stored is None:
                report["replay_failed"].append(f"{table_id}: no record")
                continue
            report["tables"] += 1
            report["actions"] += len(stored.actions)
            try:
                state = TableState.replay(stored)
                state.check()
            except GutsError as error:
                report["replay_failed"].append(f"{table_id}: {error}")
                continue
            in_pot = sum(state.session.table.places.values()) if state.session else 0
            nets = sum(row["net"] for row in ledger_rows(state, {}, None))
            if nets + in_pot != 0:
                report["ledger_unbalanced"].append(f"{table_id}: nets {nets}, pots {in_pot}")
            _compare(table_id, stored.actions, people, report, final)
    finally:
        await storage.close()
    return report


def _compare(table_id: str, actions: Any, people: list[dict[str, Any]], report: dict[str, Any],
             final: bool) -> None:  # fmt: skip
    """Each person's log against the stored acts of their seat."""
    stored: dict[int, list[tuple[int, int]]] = {}  # seat_id -> [(client_seq, seq)]
    for action in actions:
        payload = action.payload
        if action.kind == "act" and payload.get("client_seq"):
            stored.setdefault(payload["seat_id"], []).append((payload["client_seq"], action.seq))
    for person in people:
        mine = stored.get(person["seat_id"], [])
        numbers = [client_seq for client_seq, _ in mine]
        if len(numbers) != len(set(numbers)):
            report["twice"].append(f"{table_id} {person['name']}: {numbers}")
        at = dict(mine)
        for client_seq, seq in person["log"].items():
            if at.get(int(client_seq)) != seq:
                report["lost"].append(f"{table_id} {person['name']}: act {client_seq} told seq "
                                      f"{seq}, stored {at.get(int(client_seq))}")  # fmt: skip
        told = {int(client_seq) for client_seq in person["log"]}
        for client_seq in set(numbers) - told:
            if client_seq == person["in_flight"]:
                report["in_flight_stored"] += 1
            elif not final and client_seq > max(told, default=0):
                continue  # sent after the logs were taken
            else:
                report["untold"].append(f"{table_id} {person['name']}: act {client_seq} "
                                        f"stored, its person not told (refused: "
                                        f"{client_seq in person['refused']})")  # fmt: skip


def failures(report: dict[str, Any]) -> list[str]:
    return [
        f"{key}: {len(report[key])}"
        for key in ("replay_failed", "ledger_unbalanced", "lost", "twice", "untold")
        if report[key]
    ]


# -- the run ---------------------------------------------------------------------------------


def open_sockets(pid: int | None) -> int:
    """How many sockets process ``pid`` holds (its clients', the database's, Redis's)."""
    if pid is None:
        return 0
    try:
        return sum(
            os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
            for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except OSError:
        return 0


class Run:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args, self.folder = args, folder
        self.redis = RedisServer(folder)
        self.nodes: list[Node] = []
        self.crowd: Crowd | None = None  # type: ignore[assignment]
        self.db: asyncpg.Connection = None  # type: ignore[assignment]
        self.warming: asyncio.Future[None] | None = None
        self.database_name = f"guts_load_{os.getpid()}"
        self.database = ""
        self.admin = ""
        self.began = time.monotonic()
        self.timeline: list[dict[str, Any]] = []
        self.checks: list[dict[str, Any]] = []
        self.pool = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=dies_with_us,
            initargs=(os.getpid(),),
        )

    async def setup(self) -> None:
        self.admin = await admin_url()
        await admin(self.admin, f'DROP DATABASE IF EXISTS "{self.database_name}"')
        await admin(self.admin, f'CREATE DATABASE "{self.database_name}"')
        self.database = with_database(self.admin, self.database_name)
        await started(self.redis)
        for n in range(self.args.nodes):
            node = Node("ab"[n] if n < 2 else str(n), self.database, self.redis.url,
                        self.folder, self.args)  # fmt: skip
            self.nodes.append(node)
        await started(*self.nodes)
        self.db = await asyncpg.connect(self.database)
        self.warming = asyncio.get_running_loop().run_in_executor(self.pool, warm)

    async def teardown(self) -> None:
        crowd = self.crowd
        if crowd is not None:
            crowd.stopping = True
            await asyncio.gather(*(person.close() for person in crowd.people))
            for task in list(crowd.tasks):
                task.cancel()
        if self.db is not None:
            with contextlib.suppress(Exception):
                await self.db.close()

    def stop_processes(self, at_once: bool = False) -> None:
        """Stop the nodes (SIGTERM, or SIGKILL ``at_once``), Redis and the check's worker."""
        for node in self.nodes:
            node.kill() if at_once else node.stop()
        self.redis.stop()
        self.pool.shutdown(wait=not at_once, cancel_futures=True)

    async def check(self, label: str, final: bool = False) -> dict[str, Any]:
        assert self.crowd is not None
        logs = self.crowd.logs()
        report = await asyncio.get_running_loop().run_in_executor(
            self.pool, check_tables, self.database, logs, final)  # fmt: skip
        report["after"] = label
        report["failures"] = failures(report)
        self.checks.append(report)
        say(
            f"check after {label}: {report['tables']} tables, {report['actions']} commands, "
            + ("all hold" if not report["failures"] else "FAILED " + ", ".join(report["failures"]))
        )
        return report

    def sample(self, elapsed: float, window_s: float) -> dict[str, Any]:
        crowd = self.crowd
        assert crowd is not None
        lat = crowd.latencies
        window, acks = lat.window, lat.window_acks
        lat.window, lat.window_acks = [], 0
        lat.prune(time.perf_counter())
        point = {
            "t_s": round(elapsed, 1),
            "actions_per_s": round(acks / window_s, 1),
            "p50_ms": round(quantile(window, 0.5) * 1000, 1),
            "p99_ms": round(quantile(window, 0.99) * 1000, 1),
            "max_ms": round(max(window, default=float("nan")) * 1000, 1),
            "errors": sum(crowd.counters.errors.values()),
            "reconnects": crowd.counters.reconnects,
            "connections": crowd.counters.connected,
            "rss_mib": [round(rss_kib(n.pid) / 1024, 1) if n.pid else 0 for n in self.nodes],
            "sockets": [open_sockets(n.pid) for n in self.nodes],
            "cpu_s": [round(cpu_seconds(n.pid), 1) if n.pid else 0 for n in self.nodes],
            "load": round(os.getloadavg()[0], 2),
        }
        self.timeline.append(point)
        say(
            f"t={point['t_s']:>6}s  {point['actions_per_s']:>7} act/s  p50 {point['p50_ms']} ms  "
            f"p99 {point['p99_ms']} ms  max {point['max_ms']} ms  errors {point['errors']}  "
            f"reconnects {point['reconnects']}  connections {point['connections']}  "
            f"RSS {point['rss_mib']} MiB  sockets {point['sockets']}  load {point['load']}"
        )
        return point

    async def play(self) -> dict[str, Any]:
        args = self.args
        crowd = self.crowd = Crowd([n.port for n in self.nodes], args.mode, args.seed, args.pause)
        say(f"seating {args.players} people at {args.tables} tables on {args.nodes} nodes")
        owners = await seat_people(crowd, self.nodes, args)
        if self.warming is not None:
            await self.warming
        say(f"seated; playing for {args.duration:.0f} s ({args.mode})")
        await asyncio.sleep(args.warmup)
        faults = Faults(self)
        first_ids = [node.id for node in self.nodes]  # (a node started again has another)
        kinds = [kind for kind in FAULTS if kind in args.faults]
        crowd.latencies.measuring = True
        lag: list[float] = []
        answers: list[list[float]] = [[] for _ in self.nodes]
        watching = [asyncio.create_task(loop_lag(lag)),
                    asyncio.create_task(health_times(self.nodes, answers))]  # fmt: skip
        began, self.began = time.perf_counter(), time.monotonic()
        cpu_before = [cpu_seconds(n.pid) if n.pid else 0.0 for n in self.nodes]
        client_cpu = time.process_time()
        next_sample, next_fault, turn = began + args.sample_every, began + args.fault_every, 0
        end = began + args.duration
        pending: asyncio.Task[Any] | None = None
        # play until the time is up and each fault asked for has been injected once
        while (now := time.perf_counter()) < end or turn < len(kinds):
            if now >= next_sample:
                self.sample(now - began, args.sample_every)
                next_sample += args.sample_every
            if kinds and now >= next_fault and (pending is None or pending.done()):
                kind = kinds[turn % len(kinds)]
                turn += 1
                pending = asyncio.create_task(self._fault(faults, kind))
                next_fault = now + args.fault_every
            await asyncio.sleep(0.1)
        if pending is not None:
            await pending
        elapsed = time.perf_counter() - began
        crowd.latencies.measuring = False
        for task in watching:
            task.cancel()
        server_cpu = [  # a node started again after a kill: None
            cpu_seconds(n.pid) - before if n.pid and n.starts == 1 else None
            for n, before in zip(self.nodes, cpu_before, strict=True)
        ]
        client_cpu = time.process_time() - client_cpu
        crowd.stopping = True  # no new actions; let the ones in flight be answered
        deadline = time.monotonic() + 30
        while any(p.in_flight for p in crowd.people) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        final = await self.check("the end", final=True)
        lat = crowd.latencies
        per_node = {node_id: 0 for node_id in first_ids}
        for table, acks in lat.by_table.items():
            per_node[owners[table]] += acks
        accepted = [per_node[node_id] for node_id in first_ids]
        return {
            "accepted_actions_per_s": round(lat.acks / elapsed, 1),
            "receipt_p50_ms": round(quantile(lat.samples, 0.5) * 1000, 1),
            "receipt_p99_ms": round(quantile(lat.samples, 0.99) * 1000, 1),
            "receipt_max_ms": round(max(lat.samples, default=float("nan")) * 1000, 1),
            "receipts": len(lat.samples),
            "errors": dict(crowd.counters.errors),
            "error_messages": dict(crowd.counters.said),
            "reconnects": crowd.counters.reconnects,
            "gave_up": crowd.counters.gave_up,
            "duplicate_frames": crowd.counters.duplicate_frames,
            "gaps": crowd.counters.gaps,
            "resends": crowd.counters.resends,
            "resends_applied_before": crowd.counters.resends_applied_before,
            "unanswered_at_end": sum(p.in_flight is not None for p in crowd.people),
            "accepted_by_first_owner": accepted,
            "server_cpu_share": [
                None if cpu is None else round(cpu / elapsed, 2) for cpu in server_cpu
            ],
            "server_cpu_ms_per_action": [
                None if cpu is None or not n else round(cpu * 1000 / n, 2)
                for cpu, n in zip(server_cpu, accepted, strict=True)
            ],
            "client_cpu_share": round(client_cpu / elapsed, 2),
            "client_loop_lag_ms": spread_ms(lag),
            "healthz_ms": [spread_ms(times) for times in answers],
            "measured_s": round(elapsed, 1),
            "faults": faults.done,
            "checks": [{k: v for k, v in c.items() if k in CHECK_KEYS} for c in self.checks],
            "final_check": final,
            "leases_lost": [lost_leases(node.log) for node in self.nodes],
            "rss_growth_mib_per_min": [
                growth(self.timeline, i) if node.starts == 1 else None
                for i, node in enumerate(self.nodes)
            ],
            "timeline": self.timeline,
        }

    async def _fault(self, faults: Faults, kind: str) -> None:
        report = await faults.inject(kind)
        say(f"fault {kind}: {report}")
        await asyncio.sleep(self.args.settle)
        await self.check(f"{kind} at {report['at_s']} s")


async def loop_lag(samples: list[float], period: float = 0.05) -> None:
    """How late this script's event loop wakes from a sleep of ``period``, into
    ``samples`` (for ever): a receipt waits that long too before the script sees it."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(period)
        samples.append(time.perf_counter() - before - period)


async def health_times(nodes: list[Node], samples: list[list[float]],
                       period: float = 0.5) -> None:  # fmt: skip
    """How long each node takes to answer ``/healthz`` (no database, no Redis: its event
    loop's lag, the loopback and this script's lag), into ``samples`` (for ever)."""
    async with httpx.AsyncClient(timeout=30) as client:
        while True:
            for node, times in zip(nodes, samples, strict=True):
                if node.process is None:
                    continue
                before = time.perf_counter()
                try:
                    await client.get(f"{node.url}/healthz")
                except httpx.HTTPError:
                    continue
                times.append(time.perf_counter() - before)
            await asyncio.sleep(period)


def spread_ms(samples: list[float]) -> list[float]:
    """p50, p99 and max of ``samples`` (seconds), in milliseconds."""
    return [round(quantile(samples, q) * 1000, 1) for q in (0.5, 0.99)] + [
        round(max(samples, default=float("nan")) * 1000, 1)
    ]


def lost_leases(log: Path) -> int:
    """How many times a node's log says it lost a table's lease to another node (its
    heartbeat late: an overloaded node; or the fence after a takeover)."""
    with log.open() as lines:
        return sum('"event": "lease-lost"' in line for line in lines)


def growth(timeline: list[dict[str, Any]], node: int) -> float | None:
    """How fast node ``node``'s resident memory grew after the first minute, in MiB a
    minute (the least-squares slope of its samples; None with fewer than three)."""
    points = [(p["t_s"] / 60, p["rss_mib"][node]) for p in timeline if p["t_s"] >= 60]
    if len(points) < 3:
        return None
    mean_t = sum(t for t, _ in points) / len(points)
    mean_m = sum(m for _, m in points) / len(points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    return round(sum((t - mean_t) * (m - mean_m) for t, m in points) / spread, 2)


def say(line: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def verdict(result: dict[str, Any], faults: list[str]) -> list[str]:
    """What failed: any check's invariants, frames delivered twice, people who could not
    get back, a killed node's tables not taken over, actions never answered."""
    problems = [f"check after {c['after']}: {', '.join(c['failures'])}"
                for c in result["checks"] if c["failures"]]  # fmt: skip
    if result["duplicate_frames"]:
        problems.append(f"{result['duplicate_frames']} event frames delivered twice")
    if result["gave_up"]:
        problems.append(f"{result['gave_up']} people could not reconnect")
    for fault in result["faults"]:
        if "failed" in fault:
            problems.append(f"fault {fault['fault']} at {fault['at_s']} s: {fault['failed']}")
        elif fault["fault"] == "kill" and fault["not_taken_over"]:
            problems.append(f"{fault['not_taken_over']} tables of a killed node not taken over")
    if result["unanswered_at_end"]:
        problems.append(f"{result['unanswered_at_end']} actions unanswered at the end")
    for kind in faults:
        if not any(fault["fault"] == kind for fault in result["faults"]):
            problems.append(f"fault {kind} was never injected (too short a run)")
    return problems


def summary(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{result['players']} players, {result['tables']} tables, "
                        f"{result['nodes']} nodes, {result['mode']}")  # fmt: skip
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key in ("accepted_actions_per_s", "receipt_p50_ms", "receipt_p99_ms", "receipt_max_ms",
                "errors", "reconnects", "duplicate_frames", "gaps", "resends", "server_cpu_share",
                "server_cpu_ms_per_action",
                "rss_growth_mib_per_min", "leases_lost",
                "client_cpu_share", "client_loop_lag_ms", "healthz_ms",
                "load_before", "load_after"):  # fmt: skip
        table.add_row(key, str(result[key]))
    first, last = result["timeline"][0] if result["timeline"] else {}, \
        result["timeline"][-1] if result["timeline"] else {}  # fmt: skip
    table.add_row("node RSS MiB first -> last", f"{first.get('rss_mib')} -> {last.get('rss_mib')}")
    table.add_row("node sockets first -> last", f"{first.get('sockets')} -> {last.get('sockets')}")
    for fault in result["faults"]:
        table.add_row(
            f"fault {fault['fault']} at {fault['at_s']} s",
            json.dumps({k: v for k, v in fault.items() if k not in ("fault", "at_s")}),
        )
    for check in result["checks"]:
        table.add_row(
            f"check after {check['after']}",
            "holds" if not check["failures"] else ", ".join(check["failures"]),
        )
    table.add_row("verdict", "ok" if not result["problems"] else "; ".join(result["problems"]))
    Console(stderr=True).print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--seconds", type=float, default=None,
                        help="(else --minutes; 60) at least, and until each fault of "
                        "--faults has been injected once")  # fmt: skip
    parser.add_argument("--mode", choices=("human", "flat-out"), default="human")
    parser.add_argument("--faults", default="", help="any of kill,redis,pg,resend")
    parser.add_argument("--fault-every", type=float, default=15.0,
                        help="seconds between two faults (each in turn)")  # fmt: skip
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds after a fault before the check")  # fmt: skip
    parser.add_argument("--pause", type=float, default=2.5,
                        help="a person's usual pause before acting (human), seconds")  # fmt: skip
    parser.add_argument("--resenders", type=int, default=5)
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--deal-delay", type=float, default=1.5)
    parser.add_argument("--buy-in", type=int, default=1000)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--sample-every", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-timeout", type=float, default=None,
                        help="seconds after which the run stops whatever happens "
                        "(default: the duration plus 10 minutes)")  # fmt: skip
    parser.add_argument("--server-python", default=sys.executable)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    args.duration = args.seconds if args.seconds is not None else 60 * (args.minutes or 1)
    args.faults = [kind for kind in args.faults.split(",") if kind]
    unknown = set(args.faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults {sorted(unknown)}: choose among {','.join(FAULTS)}")
    if args.tables < 1 or args.players < 2 * args.tables:
        parser.error("at least one table, and two players a table")
    hard = args.hard_timeout or args.duration + 600
    _, limit = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    def out_of_time(signum: int, frame: Any) -> None:
        """Stop at once: kill the processes, drop the database, exit 2."""
        say(f"stopping: the hard timeout ({hard:.0f} s) ran out" if signum == signal.SIGALRM
            else "stopping: terminated")  # fmt: skip
        run.stop_processes(at_once=True)
        if run.admin:  # (this thread runs the event loop: drop it from another)
            dropping = threading.Thread(target=drop_database, args=(run,), daemon=True)
            dropping.start()
            dropping.join(30)
        os._exit(2)

    folder = Path(tempfile.mkdtemp(prefix="guts-load-"))
    run = Run(args, folder)
    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, out_of_time)
    signal.alarm(int(hard))
    load_before = os.getloadavg()

    async def go() -> dict[str, Any]:
        try:
            await run.setup()
            return await run.play()
        finally:
            await run.teardown()

    code = 1
    try:
        result = uvloop.run(go())
        result.update({
            "players": args.players, "tables": args.tables, "nodes": args.nodes,
            "mode": args.mode, "faults_asked": args.faults, "seed": args.seed,
            "lease_seconds": args.lease_seconds,
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "cpu": f"{cpu_model()} x{os.cpu_count()}", "logs": str(folder),
        })  # fmt: skip
        result["problems"] = verdict(result, args.faults)
        summary(result)
        if args.json:
            print(json.dumps(result, indent=1))
        code = 0 if not result["problems"] else 1
    finally:
        signal.alarm(0)
        run.stop_processes()
        drop_database(run)
    sys.exit(code)


def drop_database(run: Run) -> None:
    if run.admin:
        with contextlib.suppress(Exception):
            asyncio.run(
                admin(run.admin, f'DROP DATABASE IF EXISTS "{run.database_name}" WITH (FORCE)')
            )


if __name__ == "__main__":
    main()
