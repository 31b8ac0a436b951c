"""``guts join`` at a club's tables: the terminal client keeps one device key beside its
seat tokens and sends it as the page does, so its seats count for one member, whatever
nickname it sits under; against a real ``guts serve`` (uvicorn in a subprocess)."""

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
from serve_helpers import WAIT, ServeProcess
from websockets.sync.client import connect

from guts.client.club import ClubSeat, link_seat
from guts.client.tokens import DEVICE, SeatTokens


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess.running(tmp_path) as running:
        yield running


def post(server: ServeProcess, path: str, body: dict[str, Any], secret: str = "") -> Any:
    headers = {"authorization": f"Bearer {secret}"} if secret else {}
    answer = httpx.post(server.url + path, json=body, headers=headers, timeout=WAIT)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def club_table(server: ServeProcess, club: dict[str, Any] | None) -> dict[str, Any]:
    """A table of two-card Guts with two bots that seats anyone, counted for ``club``."""
    table = post(server, "/api/tables", {
        "preset": "two-card-guts", "bots": 2, "bot": "random", "auto_approve": True,
        "start": False, "buy_in": 50, "options": {"max-deals": "1"}})  # fmt: skip
    if club is not None:
        post(server, f"/api/clubs/{club['club_id']}/tables",
             {"table_id": table["table_id"], "host_secret": table["host_secret"]},
             club["club_secret"])  # fmt: skip
    return table


def join(server: ServeProcess, data: Path, table: dict[str, Any], name: str) -> str:
    """``guts join`` with its user data in ``data`` as ``name``; once seated the host
    starts the night (one deal), which it plays out at every turn; its output."""
    with subprocess.Popen(
        [sys.executable, "-m", "guts", "join", table["join_url"], "--name", name],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "XDG_DATA_HOME": str(data), "COLUMNS": "100"},
    ) as process:  # fmt: skip
        try:
            assert process.stdin is not None
            process.stdin.write("o\n" * 10)
            process.stdin.flush()
            deadline = time.monotonic() + WAIT
            while not any(seat["nickname"] == name for seat in seats(server, table)):
                assert time.monotonic() < deadline and process.poll() is None, "never seated"
                time.sleep(0.05)
            with connect(f"ws://127.0.0.1:{server.port}/ws/{table['table_id']}",
                         open_timeout=WAIT) as ws:  # fmt: skip
                ws.send(json.dumps({"type": "resume"}))
                ws.recv(timeout=WAIT)  # a snapshot
                ws.send(json.dumps({"type": "start", "secret": table["host_secret"]}))
                time.sleep(0.2)
            out, _ = process.communicate(timeout=WAIT)
        finally:
            process.kill()
    assert process.returncode == 0, out
    return out


def seats(server: ServeProcess, table: dict[str, Any]) -> list[dict[str, Any]]:
    answer = httpx.get(f"{server.url}/api/tables/{table['table_id']}", timeout=WAIT)
    found: list[dict[str, Any]] = answer.json()["seats"]
    return found


def test_a_terminal_players_seats_count_for_one_member_at_the_clubs_tables(
    server: ServeProcess, tmp_path: Path
) -> None:
    club = post(server, "/api/clubs", {"name": "Friday game"})
    host = {"authorization": f"Bearer {club['club_secret']}"}
    data = tmp_path / "data"
    first = join(server, data, club_table(server, club), "Jo")
    assert "This table counts for the club Friday game: your seat is its member Jo" in first
    assert f"/c/{club['club_id']}" in first
    second = join(server, data, club_table(server, club), "Jo again")
    assert "your seat is its member Jo " in second  # the same member, another nickname
    elsewhere = join(server, data, club_table(server, None), "Jo")
    assert "counts for the club" not in elsewhere  # a table of no club: nothing to say
    view = httpx.get(f"{server.url}/api/clubs/{club['club_id']}", headers=host).json()
    assert [(m["name"], len(m["nights"]), m["devices"]) for m in view["members"]] == [
        ("Jo", 2, 1)
    ]
    # the key is kept beside the seat tokens, and is the member's credential as a page's is
    kept = json.loads((data / "guts" / "seats.json").read_text())
    assert (data / "guts" / "seats.json").stat().st_mode & 0o077 == 0
    mine = httpx.get(f"{server.url}/api/clubs/{club['club_id']}/me",
                     headers={"authorization": f"Bearer {kept[DEVICE]}"})  # fmt: skip
    assert mine.status_code == 200 and mine.json()["members"][0]["name"] == "Jo"
    # another machine (another key) sitting as Jo is another member until the host merges
    join(server, tmp_path / "other", club_table(server, club), "Jo")
    view = httpx.get(f"{server.url}/api/clubs/{club['club_id']}", headers=host).json()
    assert sorted(len(m["nights"]) for m in view["members"]) == [1, 2]


def test_a_seat_not_linked_now_is_linked_later(tmp_path: Path) -> None:
    """The link is asked again when it could not be said (a refusal, no server): the
    answer of a server is read as the page reads it."""
    tokens = SeatTokens(tmp_path / "seats.json")
    key = tokens.device_key()
    sent: list[tuple[str, dict[str, Any], str]] = []

    def answering(status: int, body: dict[str, Any]) -> Any:
        def send(url: str, payload: dict[str, Any], bearer: str) -> tuple[int, dict[str, Any]]:
            sent.append((url, payload, bearer))
            return status, body

        return send

    def unreachable(url: str, payload: dict[str, Any], bearer: str) -> tuple[int, dict[str, Any]]:
        raise OSError("connection refused")

    socket = "wss://guts.example/ws/T1?v=2"
    assert link_seat(socket, "tok", key, unreachable) is None
    assert link_seat(socket, "tok", key, answering(403, {"code": "not-seated"})) is None
    assert link_seat(socket, "tok", key, answering(404, {"code": "no-club"})) == ClubSeat(None)
    linked = link_seat(socket, "tok", key, answering(200, {
        "club_id": "K1", "club_name": "Friday", "member": {"id": "m1", "name": "Jo"}}))  # fmt: skip
    assert linked == ClubSeat("K1", "Friday", "Jo")
    assert sent[-1] == ("https://guts.example/api/tables/T1/club", {"device": key}, "tok")
    assert SeatTokens(tmp_path / "seats.json").device_key() == key  # kept, not remade


def test_a_refused_terminal_player_is_told_and_becomes_no_member(
    server: ServeProcess, tmp_path: Path
) -> None:
    club = post(server, "/api/clubs", {"name": "Friday game"})
    table = post(server, "/api/tables", {"preset": "two-card-guts", "start": False})
    post(server, f"/api/clubs/{club['club_id']}/tables",
         {"table_id": table["table_id"], "host_secret": table["host_secret"]},
         club["club_secret"])  # fmt: skip
    with subprocess.Popen(
        [sys.executable, "-m", "guts", "join", table["join_url"], "--name", "Kim"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "100"},
    ) as process:  # fmt: skip
        try:
            deadline = time.monotonic() + WAIT
            while not (asked := [s for s in seats(server, table) if s["nickname"] == "Kim"]):
                assert time.monotonic() < deadline and process.poll() is None, "never asked"
                time.sleep(0.05)
            with connect(f"ws://127.0.0.1:{server.port}/ws/{table['table_id']}",
                         open_timeout=WAIT) as ws:  # fmt: skip
                ws.send(json.dumps({"type": "resume"}))
                ws.recv(timeout=WAIT)
                ws.send(json.dumps({"type": "refuse", "secret": table["host_secret"],
                                    "seat_id": asked[0]["seat_id"]}))  # fmt: skip
                out, _ = process.communicate(timeout=WAIT)  # it ends by itself
        finally:
            process.kill()
    assert process.returncode == 0, out
    assert "Waiting for the host to approve your seat" in out
    assert "The host refused your seat: run the same command to ask again." in out
    assert "counts for the club" not in out
    kept = json.loads((tmp_path / "guts" / "seats.json").read_text())
    assert list(kept) == [DEVICE]  # the refused seat's token is forgotten, the key kept
    host = {"authorization": f"Bearer {club['club_secret']}"}
    view = httpx.get(f"{server.url}/api/clubs/{club['club_id']}", headers=host).json()
    assert view["members"] == []  # asking made no member
