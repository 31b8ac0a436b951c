"""``guts serve`` itself in a subprocess on a free loopback port, for the tests that need
a real server (the crash tests, ``guts join``, the browser tests)."""

from __future__ import annotations

import os
import random
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

WAIT = 60.0
"""Seconds a step may take before a test gives up (a hang, not a timing assertion)."""


PORTS = (20_000, 700)
"""The first port of the test ports, and how many each xdist worker has: below the
kernel's range of ephemeral ports (32768 up on Linux), so that no connection's own port
and no other process's port 0 is one, and a slice each, so that two workers never draw
the same port (a server restarting on its port gives it up for a moment)."""


def free_port() -> int:
    """A loopback port nothing listens on now, from this worker's slice of the ports
    (a run without xdist has the slice after the workers')."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) % 17 if worker[:2] == "gw" and worker[2:].isdigit() else 17
    first, count = PORTS[0] + index * PORTS[1], PORTS[1]
    start = random.randrange(count)
    for step in range(count):
        port = first + (start + step) % count
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # taken: the next one
            return port
    with socket.socket() as probe:  # the whole slice is taken: any port the kernel gives
        probe.bind(("127.0.0.1", 0))
        given: int = probe.getsockname()[1]
        return given


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

    @classmethod
    @contextmanager
    def running(cls, folder: Path) -> Iterator[Self]:
        """A server on a fresh SQLite database in ``folder``, started, and killed on
        leaving, whatever happened (no server is left behind)."""
        server = cls(f"sqlite:///{folder / 'guts.sqlite3'}", folder / "server.log")
        server.start()
        try:
            yield server
        finally:
            server.kill()

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
