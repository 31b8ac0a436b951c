"""``guts join`` keeps its seat's device token (a table and nickname each, in the user
data directory): stopped with Ctrl-C and run again, it takes up the same seat and says
so; a kept token the table does not know gets a new seat. Against a real ``guts serve``,
the clients real ``guts join`` processes with a user data directory of their own."""

from __future__ import annotations

import json
import os
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WAIT, Server

from guts.client.tokens import DEVICE


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The test process's server (the tables of each test are its own)."""
    return shared_server


def _interruptible() -> None:
    """Ctrl-C interrupts the child, as at a terminal (an xdist worker ignores SIGINT, and
    a Python started with SIGINT ignored never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Client:
    """``guts join`` in a subprocess, its input a pipe the test writes to."""

    def __init__(self, data: Path, join_url: str, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "guts", "join", join_url, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=0, preexec_fn=_interruptible,
            env={**os.environ, "COLUMNS": "400", "XDG_DATA_HOME": str(data),
                 "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        self.said = ""

    def wait_for(self, words: str) -> str:
        """What it printed until ``words`` (read as it comes: a prompt ends no line)."""
        assert self.process.stdout is not None
        out = self.process.stdout.fileno()
        deadline = time.monotonic() + WAIT
        while words not in " ".join(self.said.split()):
            assert time.monotonic() < deadline, f"never said {words!r}: {self.said[-3000:]}"
            ready, _, _ = select.select([out], [], [], 1)
            if ready:
                chunk = os.read(out, 65536).decode()
                assert chunk, f"it ended before saying {words!r}: {self.said[-3000:]}"
                self.said += chunk
        return " ".join(self.said.split())

    def answer(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)

    def stop(self) -> str:
        """Ctrl-C; what it printed to its end."""
        self.process.send_signal(signal.SIGINT)
        rest, _ = self.process.communicate(timeout=WAIT)
        self.said += rest
        return " ".join(self.said.split())

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=WAIT)


def seats_named(server: Server, table_id: str, nickname: str) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = server.get(f"/api/tables/{table_id}")["seats"]
    return [seat for seat in seats if seat["nickname"] == nickname]


def wait_until(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def host(server: Server, table_id: str, message: dict[str, Any]) -> None:
    with server.socket(table_id) as ws:
        ws.send(json.dumps({"type": "resume"}))
        json.loads(ws.recv(timeout=WAIT))  # a snapshot
        ws.send(json.dumps(message))
        time.sleep(0.2)


def test_a_stopped_client_run_again_takes_up_the_same_seat(server: Server, tmp_path: Path) -> None:
    created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 2, "bot": "random",
                                          "auto_approve": True, "clock": 0})  # fmt: skip
    table_id, secret = created["table_id"], created["host_secret"]
    data = tmp_path / "data"
    jo = Client(data, created["join_url"], "--name", "Jo")
    try:
        said = jo.wait_for("run the same command again")
        kept = data / "guts" / "seats.json"
        assert f"device token is kept in {kept}" in said
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # the token is the seat
        host(server, table_id, {"type": "start", "secret": secret})
        jo.wait_for("choose>")  # Jo's turn: the table waits for Jo (no clock)
        stopped = jo.stop()
    finally:
        jo.kill()
    assert "Stopped. Your seat is kept" in stopped and "You leave the table" not in stopped
    wait_until(lambda: not seats_named(server, table_id, "Jo")[0]["connected"], "Jo is gone")
    (seat,) = seats_named(server, table_id, "Jo")
    assert seat["status"] == "approved" and not seat["leaving"]
    seq = server.get(f"/api/tables/{table_id}")["seq"]
    again = Client(data, created["join_url"], "--name", "Jo")
    try:
        said = again.wait_for("choose>")  # the same decision, waiting for Jo
        assert f"Taking up your seat at this table again (its device token is kept in {kept})" \
            in said  # fmt: skip
        assert "You are back in your seat as Jo" in said
        assert "You sit at the table as Jo" not in said  # no new seat was asked for
        again.answer("o\n" * 200)
        wait_until(lambda: server.get(f"/api/tables/{table_id}")["seq"] > seq + 10, "play on")
        (now,) = seats_named(server, table_id, "Jo")
        assert now["seat_id"] == seat["seat_id"] and now["connected"]
        host(server, table_id, {"type": "end", "secret": secret})
        again.wait_for("The night is over.")
    finally:
        again.kill()
    assert [s["seat_id"] for s in seats_named(server, table_id, "Jo")] == [seat["seat_id"]]


def test_a_kept_token_the_table_does_not_know_gets_a_new_seat(
    server: Server, tmp_path: Path
) -> None:
    created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 2, "bot": "random",
                                          "auto_approve": True, "clock": 0})  # fmt: skip
    table_id = created["table_id"]
    data = tmp_path / "data"
    table = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
    (data / "guts").mkdir(parents=True)
    (data / "guts" / "seats.json").write_text(json.dumps({f"{table} jo": "not-a-seat"}))
    jo = Client(data, created["join_url"], "--name", "Jo")
    try:
        said = jo.wait_for("run the same command again")
    finally:
        jo.kill()
    assert "Taking up your seat at this table again" in said
    assert "The kept seat cannot be taken up (no seat of this table has that token)" in said
    assert "You sit at the table as Jo." in said
    assert [s["status"] for s in seats_named(server, table_id, "Jo")] == ["approved"]
    kept = json.loads((data / "guts" / "seats.json").read_text())
    kept.pop(DEVICE, None)  # the device key, kept once the seat asked whether it is a club's
    assert list(kept) == [f"{table} jo"] and kept[f"{table} jo"] != "not-a-seat"
