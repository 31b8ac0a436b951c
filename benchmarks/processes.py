"""What the benchmarks read about the processes they run: a free port, a process's
resident memory and CPU time (from /proc), and the quantiles of what they measured."""

from __future__ import annotations

import os
import socket


def free_port() -> int:
    """A TCP port of the loopback that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """The CPU time (user and system) process ``pid`` has used, in seconds (with
    ``thread``: that thread's alone; the main thread's id is the process's)."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    with open(path) as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (the nearest rank; NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
