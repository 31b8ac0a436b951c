"""Several nodes: two real ``guts serve --redis`` processes on one PostgreSQL database and
one Redis. A table is owned by one node; a player connected to the other still plays,
through the relay, and sees only what their seat may see; when the owner is killed the
other node takes the table over from the record, and the players resume and finish."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from nodes_helpers import NodeServer, Player, find_redis
from server_helpers import WAIT

from guts.server.storage import Storage

LEASE_S = 1.5


@pytest.fixture
def redis_url() -> str:
    return find_redis()


def always_in(decision: dict[str, Any]) -> str:
    return "in"


def nodes(
    postgres_url: str, redis_url: str, tmp_path: Path, lease_s: float = LEASE_S
) -> list[NodeServer]:
    started = []
    for name in ("a", "b"):
        node = NodeServer(postgres_url, tmp_path / f"node-{name}.log", redis_url, lease_s)
        node.start()
        started.append(node)
    return started


def open_table(node: NodeServer) -> tuple[str, str]:
    body = {"preset": "two-card-guts", "options": {}, "buy_in": 50, "bots": 0,
            "auto_approve": True}  # fmt: skip
    created = node.post("/api/tables", body)
    return created["table_id"], created["host_secret"]


def cards_seen(player: Player) -> set[int]:
    """The seats whose face-down cards ``player`` was dealt a sight of."""
    return {event["seat"] for event in player.events
            if event["kind"] == "cards-dealt" and not event.get("face_up")}  # fmt: skip


def check_alone(player: Player) -> None:
    """The player saw the cards of their own seat only (until the showdown shows them)."""
    assert player.seat is not None
    assert cards_seen(player) == {player.seat}, cards_seen(player)
    assert not any(event["kind"] == "shuffled" for event in player.events)


def check_exactly_once(player: Player) -> None:
    """No event frame was delivered twice, and none out of order."""
    assert player.seqs == sorted(set(player.seqs)), player.seqs


def test_a_player_on_each_node_plays_a_deal(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    a, b = nodes(postgres_url, redis_url, tmp_path, lease_s=10.0)  # no takeover here
    players: list[Player] = []
    try:
        table_id, secret = open_table(a)  # node A owns it: it opened it
        pat = Player([a], table_id, "Pat", always_in)
        sam = Player([b], table_id, "Sam", always_in)  # relayed by node B to A
        players += [pat, sam]
        summary = b.get(f"/api/tables/{table_id}")  # B answers from the record
        assert httpx.get(f"{b.url}/api/tables/nothing-here", timeout=WAIT).status_code == 404
        assert [seat["nickname"] for seat in summary["seats"]] == ["Pat", "Sam"]
        sam.send({"type": "start", "secret": secret})
        threads = [player.start(deals=2) for player in players]
        for thread in threads:
            thread.join(WAIT)
        for player in players:
            assert player.error is None, (player.nickname, player.error, player.frames[-4:])
            assert player.done.is_set()
            check_alone(player)
            check_exactly_once(player)
            assert player.reconnects == 0
        assert pat.seat != sam.seat
        assert a.get("/healthz")["tables"] == 1 and b.get("/healthz")["tables"] == 0
    finally:
        for player in players:
            player.close()
        for node in (a, b):
            node.stop()


def test_the_other_node_takes_over_a_killed_owner_s_table(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Node A owns the table, Pat plays on A and Sam on B. A is killed (SIGKILL) in the
    middle of the night; B takes the table over from the record within a few seconds,
    Pat reconnects (to B) and both resume and finish their deals. Every action a player
    was told was accepted is in the record once, and the record replays."""
    a, b = nodes(postgres_url, redis_url, tmp_path)
    players: list[Player] = []
    try:
        table_id, secret = open_table(a)
        pat = Player([a, b], table_id, "Pat", always_in)
        sam = Player([b], table_id, "Sam", always_in)
        players += [pat, sam]
        sam.send({"type": "start", "secret": secret})
        for thread in [player.start(deals=1) for player in players]:
            thread.join(WAIT)
        assert all(player.error is None for player in players)
        a.kill()  # the owner dies between two deals, or in the middle of the next
        threads = [player.start(deals=4) for player in players]
        for thread in threads:
            thread.join(WAIT)
        for player in players:
            assert player.error is None, (player.nickname, player.error, player.frames[-4:])
            assert player.done.is_set()
            check_alone(player)
            check_exactly_once(player)
        assert pat.reconnects >= 1 and sam.reconnects >= 1
        assert b.get("/healthz")["tables"] == 1
        check_record(postgres_url, table_id, players)
    finally:
        for player in players:
            player.close()
        for node in (a, b):
            node.stop()


def check_record(database: str, table_id: str, players: list[Player]) -> None:
    """The record holds every action a player was told was accepted, at the sequence
    number they were told, each player's actions once each (by their client numbers),
    and replays (its chips add up)."""
    import asyncio

    from guts.server.state import TableState

    async def read() -> Any:
        storage = await Storage.open(database)
        try:
            return await storage.load(table_id)
        finally:
            await storage.close()

    stored = asyncio.run(read())
    assert stored is not None
    assert [action.seq for action in stored.actions] == list(range(1, len(stored.actions) + 1))
    state = TableState.replay(stored)
    state.check()
    acts = [action.payload for action in stored.actions if action.kind == "act"]
    for seat_id in {act["seat_id"] for act in acts if act.get("client_seq")}:
        numbers = [act["client_seq"] for act in acts
                   if act["seat_id"] == seat_id and act.get("client_seq")]  # fmt: skip
        assert numbers == sorted(set(numbers)), numbers  # none applied twice
    by_seq = {action.seq: action.payload for action in stored.actions}
    for player in players:
        assert player.acked  # each player acted, and was told so
        for client_seq, seq in player.acked.items():
            stored_act = by_seq[seq]
            assert (stored_act["seat_id"], stored_act["client_seq"]) == (player.seat_id, client_seq)


def test_serve_with_redis_refuses_sqlite(tmp_path: Path, redis_url: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "guts", "serve", "--database", f"sqlite:///{tmp_path}/g.db",
         "--redis", redis_url],
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode != 0
    assert "PostgreSQL" in done.stdout + done.stderr


def test_a_paused_owner_stops_acting_once_another_node_took_its_table(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """A table of bots plays by itself on node A. A is paused (SIGSTOP) longer than its
    lease: B takes the table over and plays it on. A wakes (SIGCONT): its next commit is
    refused by the fence, it lets the table go, and the record stays one line of
    commands that replays (no command of A's after B's takeover)."""
    import signal

    a, b = nodes(postgres_url, redis_url, tmp_path)
    try:
        body = {"preset": "two-card-guts", "options": {}, "buy_in": 50, "bots": 3,
                "bot": "random", "auto_approve": True, "start": True}  # fmt: skip
        created = a.post("/api/tables", body)
        table_id, secret = created["table_id"], created["host_secret"]
        assert a.process is not None
        a.process.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + WAIT
            while b.get("/healthz")["tables"] != 1:
                assert time.monotonic() < deadline, "B never took the table over"
                time.sleep(0.2)
        finally:
            a.process.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + WAIT
        while a.get("/healthz")["tables"] != 0:
            assert time.monotonic() < deadline, "A never let the table go"
            time.sleep(0.2)
        taken_at = b.get(f"/api/tables/{table_id}")["seq"]
        with b.socket(table_id) as host:  # B acts for the table: the host pauses it
            host.send(json.dumps({"type": "resume"}))
            host.send(json.dumps({"type": "pause", "paused": True, "secret": secret}))
            while True:
                frame = json.loads(host.recv(timeout=WAIT))
                assert frame["type"] != "error", frame
                if frame["type"] == "snapshot" and frame["table"]["paused"]:
                    assert frame["seq"] > taken_at
                    break
        check_record(postgres_url, table_id, [])
        log = (tmp_path / "node-a.log").read_text()
        assert "another node owns it" in log
    finally:
        a.stop()
        b.stop()


def test_a_node_stopped_cleanly_gives_its_tables_up_at_once(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """SIGTERM: the node closes its tables and releases their leases, so that the other
    node need not wait for them to expire (15 seconds here: longer than a clean stop takes);
    it takes the table at its next heartbeat."""
    import asyncio

    from guts.server.lease import Leases

    a, b = nodes(postgres_url, redis_url, tmp_path, lease_s=15.0)
    try:
        table_id, _ = open_table(a)
        node_a = a.get("/healthz")["node"]

        async def owner() -> str | None:
            storage = await Storage.open(postgres_url)
            try:
                return await Leases(storage, "a-test", LEASE_S).owner_of(table_id)
            finally:
                await storage.close()

        assert asyncio.run(owner()) == node_a
        a.stop_cleanly()
        assert asyncio.run(owner()) in (None, b.get("/healthz")["node"])  # released, not held
        deadline = time.monotonic() + WAIT
        while b.get("/healthz")["tables"] != 1:
            assert time.monotonic() < deadline, "B never took the table"
            time.sleep(0.1)
        assert asyncio.run(owner()) == b.get("/healthz")["node"]
    finally:
        a.stop()
        b.stop()


def test_a_node_without_its_redis_says_so_and_stops(postgres_url: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    from serve_helpers import free_port

    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    done = subprocess.run(
        [sys.executable, "-m", "guts", "serve", "--port", str(free_port()),
         "--database", postgres_url, "--redis", nowhere],
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode == 3
    assert f"Redis does not answer at {nowhere}" in done.stderr
