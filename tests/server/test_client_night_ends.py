"""The terminal client stops when the night ends while it waits for a fresh snapshot.

Before it answers a decision, ``guts join`` asks for a fresh snapshot (for the panel);
if the host ends the night in between, the server's last frames say so and no snapshot
comes. The client must leave then, not wait for ever (a real-server test of a dropped
connection hung this way under load)."""

from __future__ import annotations

import io
import json
import random
from typing import Any

from rich.console import Console

from guts.catalog import find_game
from guts.client.terminal import TableClient
from guts.server.barrier import disclose


class _Exhausted(BaseException):
    """The scripted server has nothing more to send (a real one would stay silent)."""


class ScriptedSocket:
    """A websocket that sends the client ``frames`` in order and keeps what it is sent."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = [json.dumps(frame) for frame in frames]
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def recv(self) -> str:
        if not self.frames:
            raise _Exhausted()
        return self.frames.pop(0)

    def close(self) -> None:
        pass


def frames_ending_while_jo_decides() -> list[dict[str, Any]]:
    session = find_game("two-card-guts").new_session(
        [("Jo", 50), ("Ann", 50), ("Bob", 50)], rng=random.Random(3)
    )
    session.start_deal()
    seat = session.pending()[0].seat
    table = {"id": "t1", "status": "playing", "family": "guts", "preset": "two-card-guts",
             "buy_in": 50}  # fmt: skip
    you = {"seat_id": 0, "seat": seat, "status": "approved"}
    game = json.loads(json.dumps(disclose(session, seat)["game"]))
    assert game["pending"] and game["pending"][0]["seat"] == seat  # Jo is to decide
    return [
        {"type": "welcome", "token": "tok", "seat_id": 0, "status": "approved", "nickname": "Jo"},
        {"type": "snapshot", "seq": 5, "table": table, "you": you, "game": game},
        # the host ends the night: the update says so, and no snapshot follows
        {"type": "event", "seq": 6, "status": "over", "events": [], "decision": None},
    ]


def test_the_client_leaves_when_the_night_ends_before_its_snapshot_comes() -> None:
    socket = ScriptedSocket(frames_ending_while_jo_decides())
    out = io.StringIO()
    client = TableClient(
        "http://127.0.0.1:1/t/t1", "Jo",
        console=Console(file=out, width=100, color_system=None),
        source=io.StringIO("o\n" * 5), connect=lambda url: socket,
    )  # fmt: skip
    client.run()  # returns: it does not wait for a snapshot that never comes
    text = out.getvalue()
    assert text.count("The night is over.") == 1, text
    assert [m["type"] for m in socket.sent] == ["join", "resume"]  # nothing answered
