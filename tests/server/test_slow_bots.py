"""A bot whose choice takes seconds of CPU (the equilibrium bot's first solve) chooses in
a thread: every other table of the server plays on meanwhile, and the bot's table goes
on once the choice is made. Against a real ``guts serve``, on a solve cache of its own
(so the server solves for six players at the first decision: with an ante of 2, a rule
set no solution is shipped for)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Server
from websockets.sync.client import ClientConnection

WAIT = 300.0
"""How long the test waits for any one frame (the solve is seconds on an idle machine)."""


def frame(ws: ClientConnection, timeout: float = WAIT) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def acts(message: dict[str, Any]) -> int:
    """How many declarations an event frame tells of."""
    events = message.get("events") or () if message["type"] == "event" else ()
    return sum(1 for event in events if event.get("kind") == "declared")


class Prober:
    """A person at a table against one random bot: each of their actions is timed from
    the act sent to the frame that acknowledges it (the action round-trip)."""

    def __init__(self, server: Server, stack: ExitStack) -> None:
        created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 1,
                                              "bot": "random", "auto_approve": True,
                                              "clock": 0})  # fmt: skip
        self.ws = stack.enter_context(server.socket(created["table_id"]))
        self.ws.send(json.dumps({"type": "join", "nickname": "Pia"}))
        while frame(self.ws)["type"] != "welcome":
            pass
        self.ws.send(json.dumps({"type": "start", "secret": created["host_secret"]}))
        self.sent = 0
        self.round_trips: list[float] = []

    def probe(self) -> None:
        """Wait for this seat's next decision and answer it, timing the round-trip."""
        while True:
            message = frame(self.ws)
            decision = message.get("decision")
            if message["type"] in ("event", "snapshot") and decision:
                break
        self.sent += 1
        began = time.monotonic()
        self.ws.send(json.dumps({"type": "act", "seat": decision["seat"],
                                 "action": decision["actions"][0],
                                 "client_seq": self.sent}))  # fmt: skip
        while True:
            message = frame(self.ws)
            if message.get("acked") == self.sent or (
                message["type"] == "ack" and message["client_seq"] == self.sent
            ):
                break
            assert message["type"] != "error", message
        self.round_trips.append(time.monotonic() - began)


def test_a_first_equilibrium_solve_stalls_no_other_table(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path / "cache"))  # nothing solved yet
    server = Server(sqlite_url, tmp_path / "server.log")
    with ExitStack() as stack:
        stack.callback(server.stop)  # after the connections close
        server.start()
        prober = Prober(server, stack)
        prober.probe()  # the table plays before the bots' table opens
        quiet = max(prober.round_trips)
        began = time.monotonic()
        created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 6,
                                              "options": {"ante": "2"},
                                              "bot": "equilibrium", "start": True})  # fmt: skip
        with server.socket(created["table_id"]) as watcher:
            watcher.send(json.dumps({"type": "resume"}))
            during = len(prober.round_trips)
            seen = 0
            while not seen:  # the bots' first decision: the server solves for six
                prober.probe()
                while not seen:
                    try:
                        seen = acts(frame(watcher, timeout=0))
                    except TimeoutError:
                        break
            solve = time.monotonic() - began
            probes = prober.round_trips[during:]
            while seen < 12:  # the bots' table plays on: two deals' declarations and more
                seen += acts(frame(watcher))
        print(
            f"the first decision (the solve) took {solve:.2f}s; {len(probes)} action "
            f"round-trips meanwhile, the longest {max(probes):.3f}s (before: {quiet:.3f}s)"
        )
        assert max(probes) < solve / 3  # a stalled loop would hold one for the whole solve
        assert len(probes) >= 3, f"the solve took {solve:.2f}s: too quick to measure"
