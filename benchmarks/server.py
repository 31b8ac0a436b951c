"""Server benchmark: many bot clients over real websockets against one ``guts serve``.

One server process (uvicorn, in a subprocess) on SQLite or PostgreSQL; this process
opens ``--tables`` tables of ``--players`` seats each, every seat a client on its own
loopback websocket that joins, and answers each decision it is sent at once with a
random legal action (a bot playing through the protocol, exactly as a person's client
would). Once every table is started it measures, for ``--seconds``:

- accepted actions per second (every acknowledged ``act``, all tables together);
- from ``act`` to the acting client's echo (the ``event`` frame of its own command): p50,
  p99;
- from ``act`` to each other seat's receipt of that command's ``event``: p50, p99;
- the server's resident memory per table (its RSS with every table connected, less its
  RSS before any table was opened, over the tables);
- the CPU the server and the clients used (shares of one core) and the server's CPU
  milliseconds per accepted action, which a busy machine changes least, and the same
  for the event loop's thread alone (``loop_cpu_*``: the thread that bounds the
  throughput, SQLite's thread aside);
- the messages the clients received per accepted action (``frames_per_action``);
- how late the clients' own event loop ran (``client_lag``: a callback due every 5 ms,
  p50 and p99), the part of the latencies that is the clients' queue.

The clients share this machine's cores with the server, so both are on the clock: the
report gives the load average before and after. They are picows listeners (its frame
parser and writer are compiled), so that they take as little of those cores as a
client can; people's clients are on their own devices.

With ``--in-process`` there are no sockets and no uvicorn: the tables, their actors and
the database run in this process, each seat a client object that writes every frame to
JSON as the websocket writer does and answers each decision at once through the
protocol's parser; it reports the process's CPU time per accepted action over
``--actions`` actions (after a tenth as many to warm up). That is the server's own work
per action but the sockets', steadier on a busy machine, and short enough to run under
``valgrind --tool=callgrind`` for instruction counts.

    python benchmarks/server.py [--tables 200] [--players 4] [--seconds 20]
                                [--database sqlite|postgresql|URL] [--preset two-card-guts]
                                [--server-python PYTHON]
                                [--in-process [--actions 20000] [--profile FILE]]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

sys.path.insert(0, str(Path(__file__).parent))
from machine import cpu_model
from processes import cpu_seconds, free_port, quantile, rss_kib

loads = orjson.loads


def postgres_url() -> tuple[str, Any]:
    """A fresh PostgreSQL database: 127.0.0.1:5432 if one answers, else pgserver's."""
    import asyncpg

    async def answers(url: str) -> bool:
        try:
            connection = await asyncpg.connect(url, timeout=3)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        await connection.close()
        return True

    server = None
    base = os.environ.get("GUTS_TEST_POSTGRES_URL", "")
    for url in (base, "postgresql://root@127.0.0.1:5432/test",
                "postgresql://postgres@127.0.0.1:5432/test"):  # fmt: skip
        if url and asyncio.run(answers(url)):
            base = url
            break
    else:
        import pgserver

        server = pgserver.get_server(Path(tempfile.mkdtemp()) / "pgdata", cleanup_mode="stop")
        base = server.get_uri()
    name = f"guts_bench_{random.randrange(1 << 30)}"

    async def create() -> None:
        connection = await asyncpg.connect(base)
        await connection.execute(f'CREATE DATABASE "{name}"')
        await connection.close()

    asyncio.run(create())
    from sqlalchemy.engine import make_url

    url = make_url(base).set(drivername="postgresql+asyncpg", database=name)
    return url.render_as_string(hide_password=False), server


class Server:
    """``guts serve`` in a subprocess (bots and deals at once: only the clients wait)."""

    def __init__(self, database: str, log: Path, python: str = sys.executable) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        profile = os.environ.get("GUTS_BENCH_PROFILE")  # a cProfile output file
        wrap = ["-m", "cProfile", "-o", profile] if profile else []
        command = [python, *wrap, "-m", "guts", "serve", "--port", str(self.port),
                   "--database", database, "--bot-delay", "0", "--deal-delay", "0"]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log.open("w"), text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        line = self.process.stdout.readline() if ready else ""
        if not line.startswith("guts server ready"):
            raise SystemExit(f"the server did not start: {line!r}; see {log}")

    def stop(self) -> None:
        # SIGINT, not SIGTERM: uvicorn re-raises a SIGTERM once it has shut down, which
        # would end a profiled server before cProfile writes its file
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@dataclass
class Measures:
    """What the clients saw while measuring. Each command's arrival is noted per (table,
    seq) and client (an ``event`` frame covers every command after the one its client
    saw before, up to its ``seq``); the acting client's own event frame (``acked``: the
    act's acknowledgement) says which command was its own and when it sent it."""

    measuring: bool = False
    acks: int = 0
    errors: int = 0
    frames: int = 0  # every message the clients received
    echo: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], tuple[float, str]] = field(default_factory=dict)
    arrived: dict[tuple[str, int], list[tuple[str, float]]] = field(default_factory=dict)

    def received(self, table: str, seqs: range, client: str, now: float) -> None:
        if not self.measuring:
            return
        for seq in seqs:
            sent = self.sent.get((table, seq))
            if sent is None:
                self.arrived.setdefault((table, seq), []).append((client, now))
            elif sent[1] != client:
                self.others.append(now - sent[0])

    def acked(self, table: str, seq: int, client: str, sent: float, now: float) -> None:
        if not self.measuring:
            return
        self.acks += 1
        self.sent[(table, seq)] = (sent, client)
        for who, when in self.arrived.pop((table, seq), []):
            (self.echo if who == client else self.others).append(when - sent)


class BotClient(WSListener):
    """One seat of one table: joins, then answers each decision once, at once, at random.

    Like a person's client it has one action in flight at a time: a decision that
    arrives while its last action is unanswered is that same decision as the server saw
    it before the action (simultaneous choices stay pending while others choose), so it
    waits for the event frame of its action (``acked``; or an ``ack`` or ``error``),
    then answers the newest decision it was sent, if any: that frame's or a later one.

    A picows listener: each frame is handled as it is parsed (by compiled code), so the
    clients, which share the machine's cores with the server, take little of them."""

    def __init__(self, table: str, name: str, measures: Measures, rng: random.Random,
                 think: float = 0.0) -> None:  # fmt: skip
        self.table, self.name = table, name
        self.measures, self.rng = measures, rng
        self.transport: WSTransport | None = None
        self.client_seq = 0
        self.last_seq = -1
        self.decision: dict[str, Any] | None = None
        self.in_flight: float | None = None  # when the unanswered action was sent
        self.think = think  # seconds a decision waits before it is answered (a person's)
        self.thinking = False
        self.snapshot: asyncio.Future[dict[str, Any]] = \
            asyncio.get_running_loop().create_future()  # fmt: skip

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def send(self, message: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, orjson.dumps(message))

    def on_ws_frame(self, transport: WSTransport, ws_frame: WSFrame) -> None:
        if ws_frame.msg_type == WSMsgType.CLOSE:
            transport.disconnect()
            return
        if ws_frame.msg_type != WSMsgType.TEXT:
            return
        assert ws_frame.fin, "the server sends every message in one frame"
        frame = loads(ws_frame.get_payload_as_memoryview())
        kind = frame["type"]
        now = time.perf_counter()
        measures = self.measures
        measures.frames += measures.measuring
        if kind == "event":
            seq = frame["seq"]
            measures.received(self.table, range(self.last_seq + 1, seq + 1), self.name, now)
            self.last_seq = seq
            self.decision = frame["decision"]
            if frame.get("acked") is not None and self.in_flight is not None:
                measures.acked(self.table, seq, self.name, self.in_flight, now)
                self.in_flight = None
        elif kind == "ack":
            if frame["duplicate"] or self.in_flight is None:
                return
            measures.acked(self.table, frame["seq"], self.name, self.in_flight, now)
            self.in_flight = None
        elif kind == "error":
            measures.errors += measures.measuring
            self.in_flight = None
        elif kind == "snapshot":
            self.last_seq = frame["seq"]
            if not self.snapshot.done():
                self.snapshot.set_result(frame)
        if self.in_flight is None and self.decision is not None and not self.thinking:
            if self.think:
                self.thinking = True
                asyncio.get_running_loop().call_later(self.think, self._thought)
            else:
                self._act(self.decision)

    def _thought(self) -> None:
        """The think time is over: answer the newest decision (frames were read meanwhile)."""
        self.thinking = False
        if self.in_flight is None and self.decision is not None:
            self._act(self.decision)

    def _act(self, decision: dict[str, Any]) -> None:
        self.client_seq += 1
        self.decision = None
        self.in_flight = time.perf_counter()
        action = self.rng.choice(decision["actions"])
        self.send({"type": "act", "seat": decision["seat"], "action": action,
                   "client_seq": self.client_seq})  # fmt: skip

    def close(self) -> None:
        if self.transport is not None:
            self.transport.send_close(WSCloseCode.OK)
            self.transport.disconnect()


async def open_table(server: Server, http: httpx.AsyncClient, preset: str, players: int,
                     measures: Measures, rng: random.Random,
                     think: float = 0.0) -> list[BotClient]:  # fmt: skip
    created = (await http.post("/api/tables", json={"preset": preset, "auto_approve": True,
                                                     "buy_in": 1000})).json()  # fmt: skip
    ws_url = f"ws://127.0.0.1:{server.port}/ws/{created['table_id']}"
    clients = []
    for n in range(players):
        table, name = created["table_id"], f"P{n}"
        _, client = await ws_connect(partial(BotClient, table, name, measures, rng, think),
                                     ws_url, max_frame_size=2**22)  # fmt: skip
        assert isinstance(client, BotClient)
        client.send({"type": "join", "nickname": name})
        await client.snapshot
        clients.append(client)
    clients[0].send({"type": "start", "secret": created["host_secret"]})
    return clients


async def loop_lag(measures: Measures, lags: list[float]) -> None:
    """How late the clients' own event loop runs a callback due now (every 5 ms while
    measuring): the part of the latencies that is the clients' queue, not the server's."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(0.005)
        if measures.measuring:
            lags.append(time.perf_counter() - asked - 0.005)


async def bench(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    measures = Measures()
    rng = random.Random(1)
    before = rss_kib(server.process.pid)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        clients: list[BotClient] = []
        for _ in range(args.tables):
            clients += await open_table(server, http, args.preset, args.players, measures, rng,
                                        args.think / 1000)  # fmt: skip
    lags: list[float] = []
    tasks = [asyncio.create_task(loop_lag(measures, lags))]
    await asyncio.sleep(args.warmup)
    connected = rss_kib(server.process.pid)
    measures.measuring = True
    pid = server.process.pid
    began, server_cpu, loop_cpu, client_cpu = time.perf_counter(), cpu_seconds(pid), \
        cpu_seconds(pid, pid), time.process_time()  # fmt: skip
    await asyncio.sleep(args.seconds)
    measures.measuring = False
    elapsed = time.perf_counter() - began
    server_cpu = cpu_seconds(pid) - server_cpu
    loop_cpu = cpu_seconds(pid, pid) - loop_cpu
    client_cpu = time.process_time() - client_cpu
    for client in clients:
        client.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ms = 1000
    return {
        "tables": args.tables,
        "players": args.players,
        "think_ms": args.think,
        "connections": len(clients),
        "actions_per_s": round(measures.acks / elapsed, 1),
        "echo_p50_ms": round(quantile(measures.echo, 0.5) * ms, 2),
        "echo_p99_ms": round(quantile(measures.echo, 0.99) * ms, 2),
        "others_p50_ms": round(quantile(measures.others, 0.5) * ms, 2),
        "others_p99_ms": round(quantile(measures.others, 0.99) * ms, 2),
        "client_lag_p50_ms": round(quantile(lags, 0.5) * ms, 2),
        "client_lag_p99_ms": round(quantile(lags, 0.99) * ms, 2),
        "kib_per_table": round((connected - before) / args.tables, 1),
        "server_rss_mib": round(connected / 1024, 1),
        "samples": len(measures.echo),
        "errors": measures.errors,
        "frames_per_action": round(measures.frames / max(measures.acks, 1), 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "server_cpu_ms_per_action": round(server_cpu * ms / max(measures.acks, 1), 2),
        # the event loop's thread alone (the server's other threads: SQLite's): the share
        # of a core that bounds the throughput
        "loop_cpu_share": round(loop_cpu / elapsed, 2),
        "loop_cpu_ms_per_action": round(loop_cpu * ms / max(measures.acks, 1), 3),
    }


@dataclass
class Counts:
    """What the in-process clients counted: acknowledged actions, frames, errors."""

    acks: int = 0
    frames: int = 0
    errors: int = 0
    playing: bool = True


def in_process_client(actor: Any, rng: random.Random, counts: Counts) -> Any:
    """A seat's client inside the server's process (``--in-process``), as
    :class:`BotClient` over a socket: one action in flight, the newest decision answered."""
    from guts.server.actor import Client
    from guts.server.protocol import read_message

    class InProcessBot(Client):
        def __init__(self) -> None:
            super().__init__()
            self.client_seq = 0
            self.decision: dict[str, Any] | None = None
            self.in_flight = False

        def send(self, message: dict[str, Any]) -> None:
            orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)  # as the writer does
            counts.frames += 1
            kind = message["type"]
            if kind == "event":
                self.decision = message["decision"]
                if message.get("acked") is not None:
                    counts.acks += 1
                    self.in_flight = False
            elif kind == "ack" and not message["duplicate"]:
                counts.acks += 1
                self.in_flight = False
            elif kind == "error":
                counts.errors += 1
                self.in_flight = False
            if counts.playing and not self.in_flight and self.decision is not None:
                decision, self.decision = self.decision, None
                self.client_seq += 1
                self.in_flight = True
                act = {"type": "act", "seat": decision["seat"],
                       "action": rng.choice(decision["actions"]),
                       "client_seq": self.client_seq}  # fmt: skip
                actor.post(read_message(orjson.dumps(act)), self)

    return InProcessBot()


async def in_process(database: str, args: argparse.Namespace) -> dict[str, Any]:
    """The server's work per action without sockets (see the module's docstring), with
    the garbage collector set as ``guts serve`` sets it (if it does)."""
    from guts.server import app
    from guts.server.actor import Settings
    from guts.server.protocol import Join, Start
    from guts.server.storage import Storage
    from guts.server.tables import Tables

    storage = await Storage.open(database)
    tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
    counts, rng = Counts(), random.Random(1)
    starts = []
    for _ in range(args.tables):
        actor, secret = await tables.create(args.preset, {}, 1000, auto_approve=True)
        for n in range(args.players):
            client = in_process_client(actor, rng, counts)
            actor.attach(client)
            await actor.call(Join(type="join", nickname=f"P{n}"), client)
        starts.append((actor, Start(type="start", secret=secret)))
    thresholds = getattr(app, "GC_THRESHOLDS", None)
    if thresholds is not None:
        gc.set_threshold(*thresholds)
        gc.freeze()
    for actor, start in starts:
        actor.post(start, None)

    async def reach(acks: int) -> None:
        while counts.acks < acks:
            await asyncio.sleep(0.01)

    await reach(args.actions // 10)
    profile = cProfile.Profile() if args.profile else None
    acks, frames, cpu, began = counts.acks, counts.frames, time.process_time(), \
        time.perf_counter()  # fmt: skip
    if profile is not None:
        profile.enable()
    await reach(acks + args.actions)
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    cpu, elapsed = time.process_time() - cpu, time.perf_counter() - began
    done, counts.playing = counts.acks - acks, False
    await tables.close()
    await storage.close()
    return {
        "tables": args.tables,
        "players": args.players,
        "actions": done,
        "cpu_us_per_action": round(cpu * 1e6 / done, 1),
        "actions_per_s": round(done / elapsed, 1),
        "frames_per_action": round((counts.frames - frames) / done, 2),
        "errors": counts.errors,
    }


def server_compiled(python: str) -> bool:
    """Whether ``python`` imports the server's actor as an extension module (the compiled
    build) rather than from its source."""
    shown = subprocess.run([python, "-c", "import guts.server.actor as a; print(a.__file__)"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    return not shown.stdout.strip().endswith(".py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--preset", default="two-card-guts")
    parser.add_argument("--database", default="sqlite",
                        help="sqlite, postgresql, or a database URL")  # fmt: skip
    parser.add_argument("--in-process", action="store_true",
                        help="no sockets: the server's own work per action")  # fmt: skip
    parser.add_argument("--think", type=float, default=0.0,
                        help="milliseconds each bot waits before it answers (a person's "
                        "think time: the load offered below the server's most)")  # fmt: skip
    parser.add_argument("--profile", metavar="FILE",
                        help="with --in-process: cProfile the measured actions")  # fmt: skip
    parser.add_argument("--server-python", metavar="PYTHON", default=sys.executable,
                        help="the Python that runs guts serve: e.g. a virtual environment's "
                        "with the compiled build (GUTS_COMPILE=1 pip install '.[server]')")
    parser.add_argument("--actions", type=int, default=20000,
                        help="with --in-process: how many actions to measure")  # fmt: skip
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="guts-bench-"))
    pg = None
    if args.database == "sqlite":
        database = f"sqlite:///{folder / 'guts.sqlite3'}"
    elif args.database == "postgresql":
        database, pg = postgres_url()
    else:
        database = args.database
    load = os.getloadavg()
    try:
        if args.in_process:
            result = uvloop.run(in_process(database, args))
        else:
            server = Server(database, folder / "server.log", args.server_python)
            try:
                result = uvloop.run(bench(server, args))  # the clients' loop, as the server's
            finally:
                server.stop()
    finally:
        if pg is not None:
            pg.cleanup()
    result["database"] = args.database
    result["preset"] = args.preset
    result["load_before"] = [round(x, 2) for x in load]
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    result["cpu"] = f"{cpu_model()} x{os.cpu_count()}"
    result["python"] = sys.version.split()[0]
    result["server_compiled"] = server_compiled(args.server_python)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
