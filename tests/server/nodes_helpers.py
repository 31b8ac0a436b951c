"""Helpers of the several-nodes tests: a Redis to share (or a skip saying why there is
none), ``guts serve --redis`` nodes in subprocesses, and players at real websockets."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import free_port
from server_helpers import WAIT, Server
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

REDIS_CANDIDATE = "redis://127.0.0.1:6379/0"


def find_redis() -> str:
    """``GUTS_TEST_REDIS_URL``, else a Redis on 127.0.0.1:6379, else one started here
    with ``redis-server`` (for the rest of the run); the tests that need one skip,
    saying why, when none can be had."""
    try:
        import redis
    except ImportError:
        pytest.skip("the several-nodes tests need redis-py (the server extra)")
    given = os.environ.get("GUTS_TEST_REDIS_URL")
    problems = []
    for url in [given] if given else [REDIS_CANDIDATE, *_STARTED]:
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=3)
            client.ping()
            client.close()
            return url
        except redis.RedisError as error:
            problems.append(f"{url}: {error}")
    if not given and not _STARTED and shutil.which("redis-server"):
        _STARTED.append(_start_redis())
        return find_redis()
    pytest.skip(f"the several-nodes tests need Redis: none answers ({'; '.join(problems)}); "
                "set GUTS_TEST_REDIS_URL, run one on 127.0.0.1:6379 or install "
                "redis-server")  # fmt: skip


_STARTED: list[str] = []
"""The URL of the Redis this run started, if it did."""


def _start_redis() -> str:
    """A ``redis-server`` of this run's own on a free port (stopped when the run ends)."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="guts-redis-")
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    atexit.register(process.terminate)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    return f"redis://127.0.0.1:{port}/0"


class NodeServer(Server):
    """``guts serve --redis`` in a subprocess: one node of several."""

    def __init__(self, database: str, log: Path, redis: str, lease_s: float) -> None:
        super().__init__(database, log, bot_delay=0.01, deal_delay=0.3)
        self.extra = ["--redis", redis, "--lease-seconds", str(lease_s)]

    def start(self) -> None:
        bot_delay, deal_delay = self.delays
        command = [sys.executable, "-m", "guts", "serve", "--port", str(self.port),
                   "--database", self.database, "--bot-delay", str(bot_delay),
                   "--deal-delay", str(deal_delay), *self.extra]  # fmt: skip
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=log, text=True, env=environment
            )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        line = self.process.stdout.readline() if ready else ""
        assert line.startswith(f"guts server ready at {self.url}/"), (
            f"the node did not start: {line!r}; its log: {self.log.read_text()[-3000:]}"
        )

    def stop_cleanly(self) -> None:
        """SIGTERM, and wait: the node gives its leases up."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)
            self.process = None


class Player:
    """A person at a real websocket of one node or another, answering every decision of
    their seat with ``choose`` and keeping every frame; reconnecting (to the nodes given,
    in turn) and resuming from the last sequence number seen when the socket closes."""

    def __init__(self, nodes: list[Server], table_id: str, nickname: str,
                 choose: Callable[[dict[str, Any]], str]) -> None:  # fmt: skip
        self.nodes, self.table_id, self.nickname, self.choose = nodes, table_id, nickname, choose
        self.frames: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.acked: dict[int, int] = {}  # client_seq -> the table's seq, as told
        self.seqs: list[int] = []  # the seq of each event frame, in order
        self.last_seq: int | None = None
        self.seat: int | None = None
        self.client_seq = 0
        self.reconnects = 0
        self.done = threading.Event()
        self.error: BaseException | None = None
        self._node = 0
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._open()
        self.send({"type": "join", "nickname": nickname})
        welcome = self.until("welcome")
        self.token: str = welcome["token"]
        self.seat_id: int = welcome["seat_id"]

    def _open(self) -> ClientConnection:
        server = self.nodes[self._node % len(self.nodes)]
        url = f"ws://127.0.0.1:{server.port}/ws/{self.table_id}"
        return self._stack.enter_context(connect(url, open_timeout=WAIT))

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
        self.frames.append(frame)
        if frame.get("acked") is not None:  # the event frame of the player's own act
            self.acked[frame["acked"]] = frame["seq"]
        if frame["type"] == "ack" and frame["seq"] is not None:
            self.acked[frame["client_seq"]] = frame["seq"]
        if frame["type"] == "snapshot":
            self.seat = frame["you"]["seat"] if frame["you"] else None
            self.last_seq = frame["seq"]
        elif frame["type"] == "seats":
            mine = [seat for seat in frame["seats"] if seat["seat_id"] == self.seat_id]
            if mine and mine[0].get("seat") is not None:
                self.seat = mine[0]["seat"]
        elif frame["type"] == "event":
            self.events += frame["events"]
            self.seqs.append(frame["seq"])
            self.last_seq = frame["seq"]
        return frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame

    def resume(self) -> None:
        """Reconnect (to the next node) until a node takes the resume."""
        deadline = time.monotonic() + WAIT
        while True:
            self._node += 1
            self.reconnects += 1
            try:
                self.ws = self._open()
                self.send({"type": "resume", "token": self.token, "last_seq": self.last_seq})
                self.until("snapshot")
                return
            except (OSError, ConnectionClosed, TimeoutError, InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _decide(self, decision: dict[str, Any] | None) -> None:
        if decision is None or decision.get("seat") != self.seat:
            return
        self.client_seq += 1
        self.send({"type": "act", "seat": self.seat, "action": self.choose(decision),
                   "client_seq": self.client_seq})  # fmt: skip

    def play_deal(self, deals: int = 1) -> None:
        """Answer the seat's decisions until ``deals`` deals ended (in a thread: see
        :meth:`start`); after a dropped connection, resume and go on."""
        ended = sum(event["kind"] == "deal-ended" for event in self.events)
        while ended < deals:
            try:
                frame = self.receive()
            except ConnectionClosed:
                self.resume()
                frame = self.frames[-1]
            if frame["type"] == "error":
                assert frame["code"] in ("not-now", "illegal"), frame
            if frame["type"] == "event":
                ended += sum(event["kind"] == "deal-ended" for event in frame["events"])
                if ended < deals:
                    self._decide(frame.get("decision"))
            elif frame["type"] == "snapshot" and frame["game"]:
                pending = frame["game"].get("pending") or []
                self._decide(next((d for d in pending if d.get("seat") == self.seat), None))

    def start(self, deals: int = 1) -> threading.Thread:
        def run() -> None:
            try:
                self.play_deal(deals)
            except BaseException as error:
                self.error = error
            finally:
                self.done.set()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
