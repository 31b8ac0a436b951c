"""The load script (``benchmarks/load.py``) run small: two real nodes, real Redis and
PostgreSQL, people at real websockets, and each fault once (a node killed, Redis
restarted, the database's connections cut, people dropping between an action and its
echo). What it reports of the invariants is asserted, never its timings."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"
ADMIN_URLS = ("postgresql://root@127.0.0.1:5432/test", "postgresql://postgres@127.0.0.1:5432/test")


def needs_services() -> None:
    """Skip, saying why, where redis-server, the bench's libraries or PostgreSQL are missing."""
    if shutil.which("redis-server") is None:
        pytest.skip("the load script starts its own Redis: install redis-server")
    for module in ("asyncpg", "redis", "websockets", "uvloop", "rich"):
        pytest.importorskip(module, reason=f"the load script needs {module} (the server extra)")
    import asyncpg

    async def answers(url: str) -> bool:
        try:
            connection = await asyncpg.connect(url, timeout=5)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        await connection.close()
        return True

    given = os.environ.get("GUTS_TEST_POSTGRES_URL")
    if not any(asyncio.run(answers(url)) for url in ([given] if given else ADMIN_URLS)):
        pytest.skip("the load script needs PostgreSQL at 127.0.0.1:5432 (or "
                    "GUTS_TEST_POSTGRES_URL) to create its database on")  # fmt: skip


def run_script(*arguments: str, timeout: float) -> dict[str, Any]:
    """Run the script with ``--json``; its result (the run's problems included)."""
    environment = {**os.environ, "PYTHONPATH": str(SCRIPT.parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--json", "--hard-timeout", str(int(timeout)), *arguments],
        capture_output=True, text=True, timeout=timeout + 30, env=environment,
    )  # fmt: skip
    assert done.stdout, f"no result (exit {done.returncode}): {done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(done.stdout)
    result["exit"] = done.returncode
    result["stderr"] = done.stderr
    return result


def check_invariants(result: dict[str, Any], tables: int) -> None:
    """Nothing lost, nothing twice, every ledger balanced, every record replayed, after
    each fault and at the end; every killed node's tables taken over."""
    assert result["problems"] == [], result["problems"]
    assert result["exit"] == 0, result["stderr"][-3000:]
    final = result["final_check"]
    assert final["tables"] == tables
    for key in ("replay_failed", "ledger_unbalanced", "lost", "twice", "untold"):
        assert final[key] == [], (key, final[key])
    assert sum(result["accepted_by_first_owner"]) > 0
    assert result["duplicate_frames"] == 0 and result["gave_up"] == 0
    assert result["unanswered_at_end"] == 0
    kinds = [fault["fault"] for fault in result["faults"]]
    assert set(kinds) == {"kill", "redis", "pg", "resend"}, kinds
    checked = [check["after"] for check in result["checks"]]
    assert len(checked) == len(kinds) + 1 and checked[-1] == "the end"
    assert all(check["failures"] == [] for check in result["checks"])
    for fault in result["faults"]:
        if fault["fault"] == "kill":
            assert fault["tables_owned"] >= 1 and fault["not_taken_over"] == 0, fault
    assert result["reconnects"] >= 1  # the killed node's people, at least, came back


def test_two_nodes_keep_every_action_through_each_fault() -> None:
    needs_services()
    result = run_script(  # (it plays on past --seconds until each fault is injected once)
        "--players", "16", "--tables", "4", "--nodes", "2", "--seconds", "10",
        "--faults", "kill,redis,pg,resend", "--fault-every", "3", "--settle", "2",
        "--lease-seconds", "2", "--pause", "0.3", "--deal-delay", "0.3",
        "--sample-every", "5", "--resenders", "4", "--seed", "7",
        timeout=150,
    )  # fmt: skip
    check_invariants(result, tables=4)
    assert result["resends"] >= 1  # a person dropped with an action in flight sent it again


@pytest.mark.slow
def test_a_longer_soak_with_faults_keeps_every_action() -> None:
    needs_services()
    result = run_script(
        "--players", "200", "--tables", "50", "--nodes", "2", "--minutes", "3",
        "--faults", "kill,redis,pg,resend", "--fault-every", "15",
        "--lease-seconds", "3", "--pause", "1", "--deal-delay", "0.5", "--seed", "11",
        timeout=600,
    )  # fmt: skip
    check_invariants(result, tables=50)
