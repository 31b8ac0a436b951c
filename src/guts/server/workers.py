"""``guts serve --workers N``: N local nodes behind one port.

The parent starts N ``guts serve`` processes with the same options; each binds the port
with ``SO_REUSEPORT`` (the kernel spreads the connections among them) and is one node of
several (``--redis``: a table is run by one node, the others relay to it). The parent
passes SIGINT and SIGTERM on to them, and starts again a worker that died (a node's
tables are taken over by the others meanwhile), until it is stopped itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from types import FrameType

__all__ = ["REUSE_PORT", "WORKER", "run_workers", "worker_args"]

WORKER = "GUTS_WORKER"
"""The environment variable that gives a worker its number (0 opens ``--table``)."""
REUSE_PORT = "--reuse-port"
RESTART_AFTER = 1.0
"""Seconds before a worker that died is started again."""


def worker_args(argv: list[str]) -> list[str]:
    """The ``guts`` arguments of a worker: ``argv`` (the parent's, after the program)
    without ``--workers``, with :data:`REUSE_PORT`.

    >>> worker_args(["serve", "--workers", "2", "--port", "8000"])
    ['serve', '--port', '8000', '--reuse-port']
    >>> worker_args(["serve", "--workers=3"])
    ['serve', '--reuse-port']
    """
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            kept.append(arg)
    return [*kept, REUSE_PORT]


def run_workers(count: int, argv: list[str]) -> int:
    """Run ``count`` workers of ``guts ARGV`` until SIGINT or SIGTERM; 0 if they all
    stopped cleanly then."""
    args = [sys.executable, "-m", "guts", *worker_args(argv)]
    stopping = False

    def start(number: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            args, env={**os.environ, WORKER: str(number)}, start_new_session=True
        )  # only the parent signals it

    workers = [start(number) for number in range(count)]

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        time.sleep(0.2)
        for number, worker in enumerate(workers):
            code = worker.poll()
            if code is not None and not stopping:
                if code == 3:  # it never listened (the port, the database...): give up
                    stop(signal.SIGTERM, None)
                    break
                print(f"guts serve: worker {number} stopped ({code}); starting it again",
                      file=sys.stderr, flush=True)  # fmt: skip
                time.sleep(RESTART_AFTER)
                workers[number] = start(number)
    codes = [worker.wait() for worker in workers]
    return next((code for code in codes if code not in (0, -signal.SIGINT, -signal.SIGTERM)), 0)
