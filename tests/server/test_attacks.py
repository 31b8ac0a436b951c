"""The attacker: every class of abuse of issue 27 tried against a real ``guts serve``
subprocess, on SQLite and on PostgreSQL, each attack answered as ``docs/security.md``
promises. One server per database and test (started with small limits so the attacks
are quick); nothing here measures time.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_helpers import WAIT, free_port
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

HUGE = "1180591620717411303424"  # 2^70


class Target:
    """``guts serve`` on a free loopback port with ``flags``; killed afterwards."""

    def __init__(self, database: str, log: Path, *flags: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = database
        command = [sys.executable, "-m", "guts", "serve", "--port", str(self.port),
                   "--database", database, "--bot-delay", "0.01", "--deal-delay", "0.02",
                   *flags]  # fmt: skip
        with log.open("a") as written:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=written, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        line = self.process.stdout.readline() if ready else ""
        assert line.startswith("guts server ready"), (line, log.read_text()[-2000:])

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def post(self, path: str, body: Any, **headers: str) -> httpx.Response:
        return httpx.post(self.url + path, json=body, headers=headers, timeout=WAIT)

    def get(self, path: str, **headers: str) -> httpx.Response:
        return httpx.get(self.url + path, headers=headers, timeout=WAIT)

    def table(self, **body: Any) -> dict[str, Any]:
        answer = self.post("/api/tables", {"preset": "two-card-guts", **body})
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def socket(self, table_id: str, **headers: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=WAIT,
                       additional_headers=headers, max_queue=None)  # fmt: skip


SHARED_FLAGS = ("--allowed-hosts", "127.0.0.1,guts.example.org")


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Target]:
    """One server per database for the attacks that need no flags of their own (each
    opens its own tables), with the hosts it serves named."""
    import asyncio
    import secrets

    from sqlalchemy.engine import make_url

    folder = tmp_path_factory.mktemp("attacks")
    dropped = None
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{folder / 'guts.sqlite3'}"
    else:
        admin: str = request.getfixturevalue("postgres_server")
        name = f"guts_test_{secrets.token_hex(6)}"
        asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
        dropped = (admin, name)
        url = (
            make_url(admin)
            .set(drivername="postgresql+asyncpg", database=name)
            .render_as_string(hide_password=False)
        )
    target = Target(url, folder / "serve.log", *SHARED_FLAGS)
    target.database = url
    yield target
    target.stop()
    if dropped is not None:
        asyncio.run(_admin(dropped[0], f'DROP DATABASE IF EXISTS "{dropped[1]}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite"
                                       else "postgres_url")  # fmt: skip
    return url


@pytest.fixture
def serve(database: str, tmp_path: Path) -> Iterator[Any]:
    started: list[Target] = []

    def start(*flags: str) -> Target:
        target = Target(database, tmp_path / "serve.log", *flags)
        started.append(target)
        return target

    yield start
    for target in started:
        target.stop()


def frames(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """Frames up to the first of ``kind``."""
    for _ in range(500):
        frame: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps(message))


def watch(ws: ClientConnection) -> dict[str, Any]:
    """Ask for the snapshot (a spectator's), and wait for it."""
    send(ws, {"type": "resume"})
    return frames(ws, "snapshot")


def test_numbers_too_large_are_refused_and_nothing_bricks(shared: Target) -> None:
    server = shared
    answer = server.post("/api/tables", {"preset": "two-card-guts", "options": {"ante": HUGE}})
    assert answer.status_code == 400 and "10^12" in answer.json()["message"]
    night = server.table(preset="dealers-choice", auto_approve=True,
                         options={"games": "two-card-guts", "chooser-options": "yes"})  # fmt: skip
    with server.socket(night["table_id"]) as ws:
        send(ws, {"type": "join", "nickname": "Chooser"})  # seat 0: the first to choose
        frames(ws, "welcome")
        for _ in range(2):
            send(ws, {"type": "add_bot", "secret": night["host_secret"], "bot": "random"})
        send(ws, {"type": "start", "secret": night["host_secret"]})
        decision = None
        while decision is None:
            frame = json.loads(ws.recv(timeout=WAIT))
            if frame["type"] == "event":
                decision = frame["decision"]
            elif frame["type"] == "snapshot" and frame["game"] is not None:
                decision = (frame["game"].get("pending") or [None])[0]
        send(ws, {"type": "act", "seat": decision["seat"], "client_seq": 1,
                  "action": f"two-card-guts ante={HUGE}"})  # fmt: skip
        assert "10^12" in frames(ws, "error")["message"]
        send(ws, {"type": "act", "seat": decision["seat"], "client_seq": 1,
                  "action": "two-card-guts ante=1"})  # fmt: skip
        assert frames(ws, "event")["seq"] > 0  # the table plays on
    summary = server.get(f"/api/tables/{night['table_id']}").json()
    assert summary["status"] == "playing"


def test_joiners_cannot_lock_a_table(shared: Target) -> None:
    server = shared
    table = server.table()
    sockets = [server.socket(table["table_id"]) for _ in range(12)]
    try:
        codes = []
        for n, ws in enumerate(sockets):
            send(ws, {"type": "join", "nickname": f"Griefer {n}"})
            frame = json.loads(ws.recv(timeout=WAIT))
            while frame["type"] not in ("welcome", "error"):
                frame = json.loads(ws.recv(timeout=WAIT))
            codes.append(frame.get("code", "welcome"))
        assert codes.count("welcome") == 8 and set(codes[8:]) == {"not-now"}
        host = sockets[0]
        for seat_id in range(8):
            send(host, {"type": "refuse", "secret": table["host_secret"], "seat_id": seat_id})
        send(host, {"type": "add_bot", "secret": table["host_secret"], "bot": "random"})
        with server.socket(table["table_id"]) as friend:
            send(friend, {"type": "join", "nickname": "Friend"})
            assert frames(friend, "welcome")["status"] == "requested"
    finally:
        for ws in sockets:
            ws.close()


def test_chat_from_no_seat_and_chat_floods_go_nowhere(shared: Target) -> None:
    server = shared
    table = server.table(auto_approve=True)
    with server.socket(table["table_id"]) as ann, server.socket(table["table_id"]) as eve:
        send(ann, {"type": "join", "nickname": "Ann"})
        token = frames(ann, "welcome")["token"]
        send(eve, {"type": "chat", "text": "spam"})
        assert frames(eve, "error")["code"] == "not-seated"
        copies = [server.socket(table["table_id"]) for _ in range(5)]
        for ws in copies:
            send(ws, {"type": "resume", "token": token})
            frames(ws, "snapshot")
        for n in range(30):
            send(copies[n % 5], {"type": "chat", "text": f"flood {n}"})
        send(ann, {"type": "chat", "text": "x" * 501})
        assert frames(ann, "error")["code"] == "invalid"
        for ws in copies:
            ws.close()
    stored = server.get(f"/api/tables/{table['table_id']}").json()
    assert stored["seq"] <= 1 + 6  # the join, and at most a burst (5) and a line of chat


def test_narrate_and_history_cannot_stall_the_server(shared: Target) -> None:
    server = shared
    big = httpx.post(server.url + "/api/narrate", content=b"[" * (2 << 20), timeout=WAIT)
    assert big.status_code == 413
    deep = httpx.post(server.url + "/api/narrate", content=b"[" * 200_000, timeout=WAIT)
    assert deep.status_code == 400
    table = server.table(bots=2, bot="random", start=True)
    assert server.get(f"/api/tables/{table['table_id']}/history").status_code == 403
    allowed = server.get(f"/api/tables/{table['table_id']}/history",
                         authorization=f"Bearer {table['host_secret']}")  # fmt: skip
    assert allowed.status_code == 200


def test_floods_are_closed_and_addresses_limited(serve: Any) -> None:
    server = serve("--max-connections-per-address", "4", "--tables-per-minute", "3",
                   "--flood-close-after", "50", "--header-timeout", "1")  # fmt: skip
    table = server.table()
    with server.socket(table["table_id"]) as flooder:
        watch(flooder)
        limited = 0
        with pytest.raises(ConnectionClosed):
            for _ in range(5000):
                flooder.send('{"type": "resume"}')
            for _ in range(5000):
                frame = json.loads(flooder.recv(timeout=WAIT))
                limited += frame.get("code") == "rate-limited"
        assert flooder.close_code == 1008 and limited <= 2
    held = [server.socket(table["table_id"]) for _ in range(4)]
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        extra = server.socket(table["table_id"])
        frame = json.loads(extra.recv(timeout=WAIT))
        assert frame["code"] == "rate-limited"
        extra.recv(timeout=WAIT)
    spoofed = server.socket(table["table_id"], **{"X-Forwarded-For": "203.0.113.9"})
    with pytest.raises(ConnectionClosed):  # the header of an untrusted peer: ignored
        assert json.loads(spoofed.recv(timeout=WAIT))["code"] == "rate-limited"
        spoofed.recv(timeout=WAIT)
    held.pop().close()
    with server.socket(table["table_id"]) as again:  # a freed place is free
        assert watch(again)["type"] == "snapshot"
    for ws in held:
        ws.close()
    answers = [server.post("/api/tables", {"preset": "two-card-guts"}).status_code
               for _ in range(3)]  # fmt: skip
    assert answers == [201, 201, 429]  # one was opened above
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as slow:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        assert slow.recv(100) == b""  # closed by the server


def test_a_trusted_proxy_names_the_client(serve: Any) -> None:
    server = serve("--max-connections-per-address", "2", "--forwarded-allow-ips", "127.0.0.1")
    table = server.table()
    held = [server.socket(table["table_id"], **{"X-Forwarded-For": "198.51.100.1"})
            for _ in range(2)]  # fmt: skip
    with server.socket(table["table_id"], **{"X-Forwarded-For": "198.51.100.2"}) as other:
        assert watch(other)["type"] == "snapshot"  # another client's quota
    with pytest.raises(ConnectionClosed):
        third = server.socket(table["table_id"], **{"X-Forwarded-For": "198.51.100.1"})
        assert json.loads(third.recv(timeout=WAIT))["code"] == "rate-limited"
        third.recv(timeout=WAIT)
    for ws in held:
        ws.close()


def test_tables_with_no_person_expire_and_are_not_rebuilt(serve: Any) -> None:
    server = serve("--expire-after", "0.0003")  # about a second
    lonely = server.table(bots=2, bot="random")
    kept = server.table(auto_approve=True)
    with server.socket(kept["table_id"]) as ws:
        send(ws, {"type": "join", "nickname": "Pat"})
        frames(ws, "welcome")
        for _ in range(600):
            if server.get(f"/api/tables/{lonely['table_id']}").status_code == 404:
                break
            select.select([], [], [], 0.05)
        assert server.get(f"/api/tables/{lonely['table_id']}").status_code == 404
        assert server.get(f"/api/tables/{kept['table_id']}").status_code == 200
        assert server.get("/healthz").json()["tables"] == 1


def test_the_web_surface(shared: Target) -> None:
    server = shared
    for path in ("/", "/static/js/table.js", "/healthz", "/api/games"):
        headers = server.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
    table = server.table()
    assert server.get(f"/t/{table['table_id']}").headers["x-frame-options"] == "DENY"
    rebound = server.get("/healthz", host="rebind.example")
    assert rebound.status_code == 400 and rebound.json()["code"] == "bad-host"
    answer = server.post("/api/tables", {"preset": "two-card-guts"}, host="rebind.example")
    assert answer.status_code == 400
    named = server.post("/api/tables", {"preset": "two-card-guts"}, host="guts.example.org")
    assert named.json()["join_url"].startswith("http://guts.example.org/t/")
    with pytest.raises(InvalidStatus):
        connect(f"ws://127.0.0.1:{server.port}/ws/{table['table_id']}", open_timeout=WAIT,
                additional_headers={"Host": "rebind.example",
                                    "Origin": "http://rebind.example"})  # fmt: skip
    with server.socket(table["table_id"]) as ws:
        watch(ws)
        ws.send(b'{"type": "resume"}')  # a binary frame
        assert "text frames" in frames(ws, "error")["message"]
    health = server.get("/healthz").json()
    assert health["tables"] >= 2 and health["loaded"] is True
    assert table["table_id"] not in json.dumps(health)


def test_nicknames_that_deceive_are_refused(shared: Target) -> None:
    server = shared
    table = server.table(auto_approve=True)
    with server.socket(table["table_id"]) as pat:
        send(pat, {"type": "join", "nickname": "Pat"})
        frames(pat, "welcome")
        for name, code in (("\u3164", "invalid"), ("\u2800", "invalid"), ("Раt", "taken"),
                           ("Ｐａｔ", "taken"), ("Pat\ufe0f", "taken"),
                           ("Z\u0301\u0302\u0303\u0304", "invalid"),
                           ("Pa\u2028t", "invalid")):  # fmt: skip
            with server.socket(table["table_id"]) as impostor:
                send(impostor, {"type": "join", "nickname": name})
                assert frames(impostor, "error")["code"] == code, name
    seats = server.get(f"/api/tables/{table['table_id']}").json()["seats"]
    assert [seat["nickname"] for seat in seats] == ["Pat"]


def test_credentials_are_asked_for_and_kept_only_as_hashes(shared: Target) -> None:
    import asyncio
    import hashlib

    from guts.server.storage import Storage

    server, database = shared, shared.database
    table = server.table(auto_approve=True)
    table_id, secret = table["table_id"], table["host_secret"]
    with server.socket(table_id) as ws:
        send(ws, {"type": "join", "nickname": "Pat"})
        token = frames(ws, "welcome")["token"]
    for path in ("ledger", "standings", "history"):
        assert server.get(f"/api/tables/{table_id}/{path}").status_code == 403, path
        forged = server.get(f"/api/tables/{table_id}/{path}", authorization="Bearer forged")
        assert forged.status_code == 403, path
    assert server.get(f"/api/tables/{table_id}/ledger",
                      authorization=f"Bearer {token}").status_code == 403  # fmt: skip
    assert server.get(f"/api/tables/{table_id}/ledger",
                      authorization=f"Bearer {secret}").status_code == 200  # fmt: skip
    assert server.get(f"/api/tables/{table_id}/standings",
                      authorization=f"Bearer {token}").status_code == 200  # fmt: skip

    async def stored() -> Any:
        storage = await Storage.open(database)
        try:
            return await storage.load(table_id)
        finally:
            await storage.close()

    record = asyncio.run(stored())
    kept = json.dumps([repr(record.table), repr(record.seats),
                       [dict(a.payload) for a in record.actions]])  # fmt: skip
    assert token not in kept and secret not in kept
    assert record.seats[0].token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert record.table.host_secret_hash == hashlib.sha256(secret.encode()).hexdigest()


def test_a_table_opened_at_start_gets_links_of_an_allowed_host(serve: Any) -> None:
    server = serve("--table", "two-card-guts", "--allowed-hosts", "guts.example.org")
    assert server.process.stdout is not None
    lines = [server.process.stdout.readline() for _ in range(4)]
    assert lines[-1].startswith("Friends join with: http://guts.example.org:"), lines
    assert server.get("/healthz").status_code == 400  # 127.0.0.1 is not served
