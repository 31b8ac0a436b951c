"""The Quick start run again: ``guts serve --table two-card-guts``, Ctrl-C, the same
command again reopens the same table and prints its link (until its night is over, or
``--new-table``). Real ``guts serve`` processes, with a user data directory of their own
(where the database and the kept table are)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from serve_helpers import WAIT, free_port
from websockets.sync.client import connect


def quick_start(data: Path, port: int, *more: str) -> tuple[str, str]:
    """Run the Quick start's server until it prints its links, then Ctrl-C it: what it
    printed, and the host link."""
    command = [sys.executable, "-m", "guts", "serve", "--table", "two-card-guts", "--port",
               str(port), "--bot-delay", "0.01", "--deal-delay", "0.02", *more]  # fmt: skip
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(data)}
    environment.pop("GUTS_DATABASE_URL", None)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=environment)  # fmt: skip
    try:
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not any("Friends join" in s for s in lines):
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
        text = "".join(lines)
        host = re.search(rf"http://127\.0\.0\.1:{port}/t/[\w-]+#host=[\w-]+", text)
        assert host is not None, text
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=WAIT)
    return text, host.group(0)


def test_the_quick_start_run_again_reopens_its_table(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    first, link = quick_start(data, port)
    assert "A table of two-card-guts is open with 3 bots." in first
    assert (data / "guts" / "guts.sqlite3").exists()  # the default database, kept
    again, same = quick_start(data, port)
    assert same == link
    assert "The table of two-card-guts from the last run is open again" in again
    assert "--new-table opens another" in again
    assert f"Friends join with: {link.partition('#')[0]}\n" in again
    other_text, other = quick_start(data, port, "--new-table")
    assert other != link and "A table of two-card-guts is open with 3 bots." in other_text
    # the night of the newest table ends: the next run opens a fresh one
    _, kept = quick_start(data, port)
    assert kept == other
    table_id, secret = other.split("/t/")[1].split("#host=")
    command = [sys.executable, "-m", "guts", "serve", "--port", str(port)]
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(data)}
    environment.pop("GUTS_DATABASE_URL", None)
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env=environment)  # fmt: skip
    try:
        assert server.stdout is not None and "ready" in server.stdout.readline()
        with connect(f"ws://127.0.0.1:{port}/ws/{table_id}?v=2", open_timeout=WAIT) as ws:
            ws.send(json.dumps({"type": "resume"}))
            ws.recv(timeout=WAIT)
            ws.send(json.dumps({"type": "end", "secret": secret}))
            deadline = time.monotonic() + WAIT
            while True:
                frame = json.loads(ws.recv(timeout=WAIT))
                assert frame.get("type") != "error", frame
                if "over" in (frame.get("status"), frame.get("table", {}).get("status")):
                    break
                assert time.monotonic() < deadline
        summary = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}", timeout=WAIT)
        assert summary.json()["status"] == "over"
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=WAIT)
    last_text, last = quick_start(data, port)
    assert last not in (link, other) and "A table of two-card-guts is open" in last_text
