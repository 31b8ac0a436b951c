"""``guts serve`` when its database fails under it, a real server in a subprocess on a
real PostgreSQL: every line it writes on stderr is one JSON object (uvicorn's too, a
traceback inside one field), every error is logged, with the table and the client for a
connection's, and no client sees a trace: a request gets a 500 with an ``internal``
error, a connection an ``internal`` error frame and a close with code 1011. A table whose
command could not be committed nor rebuilt refuses everything until the database is
back, then goes on from its record (nothing of the lost command left in memory)."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_helpers import WAIT
from server_helpers import Server
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

TRACE = re.compile(r"Traceback|File \"|\.py\b|site-packages|(^|[\s\"'(])/[\w.-]+/")
"""What a trace or a file path of the server would look like in what a client gets."""


def no_trace(text: str) -> str:
    assert not TRACE.search(text), f"a client got a trace or a path: {text}"
    return text


def log_lines(log: Path) -> list[dict[str, Any]]:
    """Every line the server wrote on stderr, each of which must be one JSON object."""
    lines = []
    for number, line in enumerate(log.read_text().splitlines(), start=1):
        try:
            lines.append(json.loads(line))
        except ValueError:
            pytest.fail(f"line {number} of the server's stderr is not JSON: {line!r}")
    return lines


async def _admin(url: str, *statements: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def database_down(admin: str, name: str, down: bool) -> None:
    """Take the database ``name`` away from its clients (refusing new connections and
    ending the open ones), or give it back."""
    if not down:
        asyncio.run(_admin(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        return
    asyncio.run(_admin(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false',
                       "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"))  # fmt: skip


def frame(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (checked for traces on the way)."""
    for _ in range(50):
        message: dict[str, Any] = json.loads(no_trace(str(ws.recv(timeout=WAIT))))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} frame")


def closed_with(ws: ClientConnection) -> int | None:
    try:
        while True:
            no_trace(str(ws.recv(timeout=WAIT)))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def test_a_database_gone_under_the_server_is_an_internal_error_logged_in_json(
    tmp_path: Path, postgres_server: str, postgres_url: str
) -> None:
    name = make_url(postgres_url).database
    assert name is not None
    server = Server(postgres_url, tmp_path / "server.log")
    server.start()
    try:
        table_id = server.post("/api/tables", {"preset": "two-card-guts"})["table_id"]
        with server.socket(table_id) as jo:
            jo.send(json.dumps({"type": "resume"}))
            frame(jo, "snapshot")
            database_down(postgres_server, name, down=True)

            answer = httpx.get(f"{server.url}/api/tables/not-loaded-yet", timeout=WAIT)
            assert answer.status_code == 500
            assert json.loads(no_trace(answer.text))["code"] == "internal"

            with server.socket("not-loaded-either") as stranger:
                assert frame(stranger, "error")["code"] == "internal"
                assert closed_with(stranger) == 1011

            jo.send(json.dumps({"type": "join", "nickname": "Jo"}))  # cannot be committed
            assert frame(jo, "error")["code"] == "internal"
            jo.send(json.dumps({"type": "join", "nickname": "Jo"}))  # nor rebuilt: refused
            assert frame(jo, "error")["code"] == "internal"

            with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as raw:
                raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")  # uvicorn's own warning
                assert b" 400 " in raw.recv(1000)

            database_down(postgres_server, name, down=False)
            jo.send(json.dumps({"type": "join", "nickname": "Jo"}))
            assert frame(jo, "welcome")["seat_id"] == 0  # the lost join left nothing behind
        seats = server.get(f"/api/tables/{table_id}")["seats"]
        assert [(seat["seat_id"], seat["nickname"]) for seat in seats] == [(0, "Jo")]
    finally:
        if server.process is not None:
            server.process.send_signal(signal.SIGINT)
            server.process.wait(timeout=WAIT)
            server.process = None
    lines = log_lines(tmp_path / "server.log")
    errors = [line for line in lines if line["level"] == "error"]
    assert any(line.get("path") == "/api/tables/not-loaded-yet" for line in errors)
    failed = [line for line in errors if line.get("table") == "not-loaded-either"]
    assert len(failed) == 1 and failed[0]["client"].startswith("127.0.0.1:")
    assert "Traceback" in failed[0]["error"]  # the trace is in the log, in one field
    assert any(line.get("table") == table_id and line.get("seq") == 1 for line in errors)
    uvicorn = [line for line in lines if line.get("logger", "").startswith("uvicorn")]
    assert any("Invalid HTTP request" in line["message"] for line in uvicorn), uvicorn


def test_a_server_that_cannot_start_says_why_in_json_lines(
    tmp_path: Path, postgres_server: str
) -> None:
    missing = make_url(postgres_server).set(database="guts_no_such_database")
    command = [sys.executable, "-m", "guts", "serve", "--port", "0", "--database",
               missing.render_as_string(hide_password=False)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode != 0 and "ready" not in done.stdout
    log = tmp_path / "stderr"
    log.write_text(done.stderr)
    lines = log_lines(log)
    assert lines and all(line["level"] == "error" for line in lines)
    assert any("guts_no_such_database" in json.dumps(line) for line in lines)
