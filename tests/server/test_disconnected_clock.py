"""A person whose connection drops mid-decision, on a real ``guts serve``: their action
clock runs on without them (docs/protocol.md), the seat takes the safe action when the
clock and the time bank run out, the table's number of timeouts in a row sets the seat
away, and the device token resumes the seat: the player comes back and acts again."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from server_helpers import WAIT, Server
from test_crash import Person, fresh, load
from websockets.sync.client import ClientConnection

from guts.server.state import safe_action

CLOCK, BANK, AWAY_AFTER = 1, 1, 2
"""The table's seconds per decision, each person's time bank, and the timeouts in a row
that set a seat away."""


def jo_in(frame: dict[str, Any], seat_id: int) -> dict[str, Any]:
    """Jo's seat as a ``seats`` or ``snapshot`` frame shows it."""
    seats: list[dict[str, Any]] = frame["seats"]
    (seat,) = [seat for seat in seats if seat["seat_id"] == seat_id]
    return seat


def watch(watcher: ClientConnection, seat_id: int, **wanted: bool) -> int:
    """Read the spectator's frames until a ``seats`` frame shows Jo's seat as ``wanted``;
    that frame's sequence number."""
    while True:
        frame: dict[str, Any] = json.loads(watcher.recv(timeout=WAIT))
        if frame["type"] == "seats":
            seat = jo_in(frame, seat_id)
            if all(seat[key] == value for key, value in wanted.items()):
                seq: int = frame["seq"]
                return seq


def acts_again(jo: Person) -> int:
    """Jo answers his next decisions at once until one is acknowledged (one that ran out
    first is refused: Jo tries the next); its table sequence number."""
    for _ in range(20):
        while jo.decision is None:
            jo.receive()
        jo.act(jo.decision)
        jo.decision = None
        while jo.sent is not None:
            if jo.receive()["type"] == "error":
                jo.sent = None
        if jo.client_seq in jo.acked:
            return jo.acked[jo.client_seq]
    raise AssertionError("Jo's actions are never acknowledged")


def test_a_dropped_persons_clock_runs_out_sets_the_seat_away_and_the_token_resumes_it(
    sqlite_url: str, tmp_path: Path
) -> None:
    server = Server(sqlite_url, tmp_path / "server.log")
    try:
        server.start()
        clocks = {"clock": CLOCK, "time_bank": BANK, "away_after": AWAY_AFTER}
        wanted = {"preset": "jacks-or-better", "bots": 3, "auto_approve": True, **clocks}
        created = server.post("/api/tables", wanted)
        table_id = created["table_id"]
        jo = Person(server, table_id, "Jo", random.Random(1))
        assert jo.seat_id is not None
        with server.socket(table_id) as watcher:
            watcher.send(json.dumps({"type": "resume"}))
            watcher.send(json.dumps({"type": "start", "secret": created["host_secret"]}))
            while jo.decision is None:
                jo.receive()
            decision = jo.decision
            jo.close()  # Jo's connection drops while Jo decides
            gone = watch(watcher, jo.seat_id, connected=False, away=False)
            away = watch(watcher, jo.seat_id, connected=False, away=True)

            stored = load(sqlite_url, table_id)
            timeouts = [a for a in stored.actions[:away]
                        if a.kind == "act" and a.payload["seat_id"] == jo.seat_id]  # fmt: skip
            assert len(timeouts) == AWAY_AFTER  # Jo never acted: each decision timed out
            assert timeouts[-1].seq == away  # the last of them set the seat away
            assert gone < timeouts[0].seq  # the first clock ran out after the drop
            for number, timeout in enumerate(timeouts, start=1):
                payload = timeout.payload
                assert payload["timeout"] and payload["client_seq"] is None
                before = fresh(stored, timeout.seq - 1)  # the table the clock ran out at
                assert before.session is not None
                due = before.session.decision(payload["seat"])
                assert due is not None and before.state.number(jo.seat_id) == payload["seat"]
                assert payload["action"] == safe_action(due.actions, lambda: "no safe action")
                # the first timeout used the whole time bank; none was left for the next
                assert payload["bank_ms"] == (BANK * 1000 if number == 1 else 0)
                seat = fresh(stored, timeout.seq).state.seats[jo.seat_id]
                assert (seat.timeouts, seat.away) == (number, number == AWAY_AFTER)
            assert timeouts[0].payload["action"] == safe_action(
                tuple(decision["actions"]), lambda: "no safe action"
            )  # the decision Jo was shown

            snapshot = jo.resume(server)  # Jo is back, with the device token
            assert snapshot["you"]["seat_id"] == jo.seat_id
            back = jo_in(snapshot, jo.seat_id)
            assert back["connected"] and back["away"]  # still away, until Jo comes back
            watch(watcher, jo.seat_id, connected=True, away=True)
        jo.send({"type": "come_back"})
        while True:
            frame = jo.receive()
            assert frame["type"] != "error", frame
            if frame["type"] == "seats" and not jo_in(frame, jo.seat_id)["away"]:
                break
        seq = acts_again(jo)  # dealt in again, Jo decides in time
        payload = load(sqlite_url, table_id).actions[seq - 1].payload
        assert payload["seat_id"] == jo.seat_id and not payload["timeout"]
        assert payload["client_seq"] == jo.client_seq
        seat = fresh(load(sqlite_url, table_id), seq).state.seats[jo.seat_id]
        assert (seat.timeouts, seat.away) == (0, False)
        jo.close()
    finally:
        server.stop()
