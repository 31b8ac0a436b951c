"""``guts join``: the terminal client plays a web table over the protocol, against a
real ``guts serve`` (uvicorn in a subprocess): it waits for the host's approval, answers
its decisions from standard input with the prompts of ``guts play``, narrates the deals,
and leaves (cashed out at the next deal boundary with an empty pot) at the end of input;
``--watch`` spectates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import WAIT, Server


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The test process's server (the tables of each test are its own)."""
    return shared_server


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone (for a test that kills it)."""
    with Server.running(tmp_path) as running:
        yield running


def join(server: Server, join_url: str, *args: str, answers: str = "") -> subprocess.Popen[str]:
    """``guts join`` in a subprocess, its standard input the ``answers``."""
    script = server.log.with_name(f"answers-{time.monotonic_ns()}.txt")
    script.write_text(answers)
    with script.open() as stdin:
        return subprocess.Popen(
            [sys.executable, "-m", "guts", "join", join_url, *args],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "COLUMNS": "100"},
        )  # fmt: skip


def seats(server: Server, table_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = server.get(f"/api/tables/{table_id}")["seats"]
    return found


def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def host(server: Server, table_id: str, *messages: dict[str, Any]) -> None:
    """Send host commands over the table's websocket (each answered before the next)."""
    with server.socket(table_id) as ws:
        ws.send(json.dumps({"type": "resume"}))
        json.loads(ws.recv(timeout=WAIT))  # a snapshot
        for message in messages:
            ws.send(json.dumps(message))
            time.sleep(0.2)


def read_until(process: subprocess.Popen[str], words: str) -> str:
    """The process's output up to the line with ``words`` (or to its end)."""
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        if words in line:
            break
    return "".join(lines)


def output(process: subprocess.Popen[str]) -> str:
    try:
        text, _ = process.communicate(timeout=WAIT)
    finally:
        process.kill()
    return text


def test_a_terminal_player_waits_for_approval_plays_and_a_watcher_watches(
    server: Server,
) -> None:
    created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 3, "bot": "random",
                                          "options": {"max-deals": "2"}})  # fmt: skip
    table_id, secret = created["table_id"], created["host_secret"]
    watcher = join(server, created["join_url"], "--watch")
    watching = read_until(watcher, "You are watching.")  # connected before the game starts
    jo = join(server, created["join_url"], "--name", "Jo", "--buy-in", "60",
              answers="maybe\nh\n" + "o\n" * 20)  # fmt: skip
    wait_for(lambda: any(s["nickname"] == "Jo" for s in seats(server, table_id)), "Jo asks")
    (asked,) = [s for s in seats(server, table_id) if s["nickname"] == "Jo"]
    assert asked["status"] == "requested"
    host(server, table_id, {"type": "approve", "secret": secret, "seat_id": asked["seat_id"]},
         {"type": "start", "secret": secret})  # fmt: skip
    played, watched = output(jo), watching + output(watcher)
    assert jo.returncode == 0, played
    assert "Waiting for the host to approve your seat" in played
    assert "Your turn" in played and "choose> " in played
    assert "✗" in played  # "maybe" is refused in one line, and h shows the forms
    assert "The night is over." in played and "Deal 1" in played
    assert "You are dealt" in played and "Jo is dealt" not in played
    assert watcher.returncode == 0, watched
    assert "You are watching." in watched and "The night is over." in watched
    assert "Your turn" not in watched and "Deal 1" in watched
    ledger = server.get(f"/api/tables/{table_id}")
    assert ledger["status"] == "over"


def test_the_end_of_input_leaves_the_seat_and_cashes_out(server: Server) -> None:
    created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 3, "bot": "random",
                                          "auto_approve": True})  # fmt: skip
    table_id, secret = created["table_id"], created["host_secret"]
    jo = join(server, created["join_url"], "--name", "Jo")  # no answers at all
    wait_for(lambda: any(s["nickname"] == "Jo" for s in seats(server, table_id)), "Jo sits")
    host(server, table_id, {"type": "start", "secret": secret})
    left = output(jo)
    assert jo.returncode == 0, left
    assert "You leave the table" in left
    wait_for(
        lambda: [s["status"] for s in seats(server, table_id) if s["nickname"] == "Jo"]
        == ["left"],
        "Jo is cashed out",
    )
    host(server, table_id, {"type": "end", "secret": secret})
    auth = {"authorization": f"Bearer {secret}"}
    rows = httpx.get(f"{server.url}/api/tables/{table_id}/ledger", headers=auth, timeout=WAIT)
    rows = rows.json()
    (row,) = [r for r in rows["players"] if r["player_nickname"] == "Jo"]
    assert row["stack"] == 0 and row["buy_out"] >= 0 and row["buy_in"] == 100



def test_a_dropped_connection_is_taken_up_again_with_the_seat(own_server: Server) -> None:
    server = own_server
    created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 3, "bot": "random",
                                          "auto_approve": True, "clock": 0})  # fmt: skip
    table_id, secret = created["table_id"], created["host_secret"]
    jo = join(server, created["join_url"], "--name", "Jo", answers="o\n" * 400)
    wait_for(lambda: any(s["nickname"] == "Jo" for s in seats(server, table_id)), "Jo sits")
    host(server, table_id, {"type": "start", "secret": secret})
    wait_for(lambda: server.get(f"/api/tables/{table_id}")["seq"] > 20, "a few deals")
    server.kill()  # SIGKILL: the client's connection drops
    server.start()
    seq = server.get(f"/api/tables/{table_id}")["seq"]
    going = True
    try:  # Jo's client takes its seat up again and answers: the night goes on
        wait_for(lambda: server.get(f"/api/tables/{table_id}")["seq"] > seq + 30, "play goes on")
    except AssertionError:
        going = False
    host(server, table_id, {"type": "end", "secret": secret})
    text = output(jo)
    assert going, text
    assert jo.returncode == 0, text
    assert "The connection dropped; taking it up again" in text
    assert "The night is over." in text
    (jo_seat,) = [s for s in seats(server, table_id) if s["nickname"] == "Jo"]
    assert jo_seat["status"] == "approved"  # the same seat, never left


def test_a_terminal_player_chooses_the_games_of_a_night(server: Server) -> None:
    created = server.post("/api/tables", {
        "preset": "dealers-choice", "auto_approve": True,
        "options": {"games": "two-card-guts,three-five-seven", "cap": "1", "most-games": "3"},
    })  # fmt: skip
    table_id, secret = created["table_id"], created["host_secret"]
    jo = join(server, created["join_url"], "--name", "Jo",
              answers="napalm\nh\ntwo-card-guts\n" + "o\n" * 60)  # fmt: skip
    wait_for(lambda: any(s["nickname"] == "Jo" for s in seats(server, table_id)), "Jo sits")
    host(server, table_id, *[{"type": "add_bot", "secret": secret, "bot": "sensible"}] * 2,
         {"type": "start", "secret": secret})  # fmt: skip
    played = output(jo)
    assert jo.returncode == 0, played
    assert "choose game 1" in played and "choose> " in played
    assert "✗" in played  # napalm is not one of the games
    assert "You choose game 1: two-card-guts" in played
    assert "Game 1 (two-card-guts) is over after 1 deal" in played
    assert "game 3" in played and "The night is over." in played
