"""``guts serve --table PRESET``: the Quick start's main command, a real server that
opens a table against bots at once and prints the link to play at."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from cli_helpers import run
from serve_helpers import free_port


def test_serve_opens_a_table_against_bots_and_prints_its_links(tmp_path: Path) -> None:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path / 'guts.db'}"
    command = [sys.executable, "-m", "guts", "serve", "--port", str(port), "--database",
               database, "--table", "two-card-guts", "--bots", "2"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    try:
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("Friends join" in s for s in lines):
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
        text = "".join(lines)
        assert "A table of two-card-guts is open with 2 bots." in text, text
        host = re.search(rf"http://127\.0\.0\.1:{port}/t/([\w-]+)#host=[\w-]+", text)
        assert host is not None, text
        summary = httpx.get(f"http://127.0.0.1:{port}/api/tables/{host.group(1)}").json()
        assert summary["preset"] == "two-card-guts"
        assert sum(1 for seat in summary["seats"] if seat["kind"] != "person") == 2
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--table", "no-such-game"], "unknown game"),
        (["--table", "bourre", "--bot", "threshold"], "--bots must be one of"),
        (["--table", "two-card-guts", "--bots", "12"], "--bots must be between"),
        (["--table", "two-card-guts", "-o", "ante=x"], "ante"),
    ],
)
def test_serve_checks_the_table_before_it_starts(
    flags: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "serve", "--port", "8002", *flags)
    assert code == 2 and says in err
