"""``guts serve`` itself in a subprocess on a free loopback port, for the tests that need
a real server (the crash tests, ``guts join``, the browser tests)."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

WAIT = 60.0
"""Seconds a step may take before a test gives up (a hang, not a timing assertion)."""


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServeProcess:
    """``guts serve`` on ``database``, logging to ``log``; restartable on the same port."""

    def __init__(
        self, database: str, log: Path, *, bot_delay: float = 0.01, deal_delay: float = 0.02
    ) -> None:
        self.database = database
        self.log = log
        self.delays = (bot_delay, deal_delay)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        """Start the server and wait for the line it prints once it listens."""
        bot_delay, deal_delay = self.delays
        command = [sys.executable, "-m", "guts", "serve", "--port", str(self.port),
                   "--database", self.database, "--bot-delay", str(bot_delay),
                   "--deal-delay", str(deal_delay)]  # fmt: skip
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=log, text=True, env=environment
            )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        line = self.process.stdout.readline() if ready else ""
        assert line.startswith(f"guts server ready at {self.url}/"), (
            f"the server did not start: {line!r}; its log: {self.log.read_text()[-2000:]}"
        )

    def kill(self) -> None:
        """SIGKILL, if it runs: the server stops without a word, as a crash would."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=WAIT)
            self.process = None
