"""The action clocks after a crash: a real ``guts serve`` killed with SIGKILL while a
person thinks into the time bank, then started again. The seat to act gets a fresh
decision clock, and its time bank is as last committed: the bank its committed actions
used is gone, the bank the crash interrupted is not charged (docs/protocol.md, on a server
that restarts). tests/server/test_clock_restart.py checks the same on a table rebuilt
in-process; this one kills a real server."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WAIT, Server
from test_crash import Person, load

CLOCK, BANK = 5, 30
"""The table's seconds per decision and each person's time bank."""
THINK = CLOCK + 1.5
"""How long Jo thinks before each decision: past the clock, into the bank."""


def decide(person: Person) -> dict[str, Any]:
    """Wait for ``person``'s next decision (acting on none)."""
    while person.decision is None:
        person.receive()
    return person.decision


def act(person: Person, decision: dict[str, Any]) -> int:
    """Act on ``decision`` with its first action; the table sequence number of the event
    frame that acknowledges it."""
    person.client_seq += 1
    person.send({"type": "act", "seat": decision["seat"], "action": decision["actions"][0],
                 "client_seq": person.client_seq})  # fmt: skip
    person.decision = None
    while True:
        frame = person.receive()
        if frame.get("acked") == person.client_seq:
            seq: int = frame["seq"]
            return seq
        assert frame["type"] != "error", frame


@pytest.mark.slow
def test_a_restart_gives_a_fresh_clock_and_the_committed_time_bank(
    sqlite_url: str, tmp_path: Path
) -> None:
    server = Server(sqlite_url, tmp_path / "server.log")
    try:
        server.start()
        created = server.post("/api/tables", {"preset": "jacks-or-better", "bots": 3,
                                              "auto_approve": True, "clock": CLOCK,
                                              "time_bank": BANK})  # fmt: skip
        table_id = created["table_id"]
        jo = Person(server, table_id, "Jo", random.Random(3))
        with server.socket(table_id) as host:
            host.send(json.dumps({"type": "resume"}))
            host.send(json.dumps({"type": "start", "secret": created["host_secret"]}))
            while json.loads(host.recv(timeout=WAIT))["type"] != "event":
                pass
        time.sleep(THINK)  # into the bank, then act: that much bank is committed
        seq = act(jo, decide(jo))
        used = load(sqlite_url, table_id).actions[seq - 1].payload["bank_ms"]
        assert 0 < used <= BANK * 1000
        decision = decide(jo)
        time.sleep(THINK)  # into the bank again, and the server dies before Jo acts
        server.kill()
        jo.close()
        stored = load(sqlite_url, table_id)

        server.start()
        snapshot = jo.resume(server)
        assert snapshot["seq"] == len(stored.actions)  # nothing happened since the kill
        assert jo.decision == decision  # the same decision waits for Jo
        (clock,) = [c for c in snapshot["clocks"] if c["seat"] == decision["seat"]]
        assert 0 < clock["seconds"] <= CLOCK  # a fresh clock (the old one had run out)
        assert clock["bank"] == round((BANK * 1000 - used) / 1000, 1)  # as committed
        seq = act(jo, decision)  # at once, within the fresh clock: no bank used
        assert load(sqlite_url, table_id).actions[seq - 1].payload["bank_ms"] == 0
        jo.close()
    finally:
        server.stop()
