"""``guts serve --workers 2``: two local nodes behind one port. Connections reach both;
players play whichever worker their socket lands on; a worker killed with SIGKILL is
started again while the other takes its tables over; SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from nodes_helpers import NodeServer, Player, find_redis
from server_helpers import WAIT

LEASE_S = 1.5


@pytest.fixture
def redis_url() -> str:
    return find_redis()


def workers_of(parent: int) -> list[int]:
    """The process ids of ``parent``'s children."""
    found = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def nodes_seen(url: str, count: int) -> set[str]:
    """The node ids ``/healthz`` names over fresh connections until ``count`` are seen."""
    seen: set[str] = set()
    deadline = time.monotonic() + WAIT
    while len(seen) < count:
        assert time.monotonic() < deadline, f"only these nodes answer: {seen}"
        try:
            seen.add(httpx.get(f"{url}/healthz", timeout=WAIT).json()["node"])
        except httpx.TransportError:
            time.sleep(0.1)  # a worker starting again
    return seen


def test_two_workers_behind_one_port(postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    server = NodeServer(postgres_url, tmp_path / "serve.log", redis_url, LEASE_S)
    server.extra += ["--workers", "2"]
    players: list[Player] = []
    server.start()
    assert server.process is not None
    parent = server.process.pid
    try:
        first = nodes_seen(server.url, 2)
        body = {"preset": "two-card-guts", "options": {}, "buy_in": 50, "bots": 0,
                "auto_approve": True}  # fmt: skip
        created = server.post("/api/tables", body)
        table_id = created["table_id"]
        players += [Player([server], table_id, name, lambda _: "in") for name in ("Pat", "Sam")]
        players[0].send({"type": "start", "secret": created["host_secret"]})
        for thread in [player.start(deals=1) for player in players]:
            thread.join(WAIT)
        assert all(player.error is None and player.done.is_set() for player in players)

        workers = workers_of(parent)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)  # the parent starts it again, as a new node
        for thread in [player.start(deals=3) for player in players]:
            thread.join(WAIT)
        for player in players:
            assert player.error is None, player.error
            assert player.done.is_set()
        again = nodes_seen(server.url, 2)
        assert len(again - first) >= 1  # the new worker is a new node
        assert len(workers_of(parent)) == 2
    finally:
        for player in players:
            player.close()
        children = workers_of(parent)
        server.stop_cleanly()  # SIGTERM: the parent stops its workers
        for pid in children:
            deadline = time.monotonic() + WAIT
            while Path(f"/proc/{pid}").exists() and _alive(pid):
                assert time.monotonic() < deadline, f"worker {pid} still runs"
                time.sleep(0.1)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_workers_need_redis(tmp_path: Path) -> None:
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "guts", "serve", "--workers", "2", "--port", "8999"],
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode != 0
    assert "--redis" in done.stdout + done.stderr
