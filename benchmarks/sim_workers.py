"""Fast-path scaling: ``guts simulate --fast`` in this process against process pools.

Four-player two-card Guts with threshold bots on the fast path (``--fast``), a fixed
seeded workload of ``--sessions`` sessions (4,000,000 by default), timed end to end as
``guts simulate`` runs it: the pool started, every batch played and sent back, the
summaries merged, the pool shut down. Four ways, alternated ``--repeats`` times in one run
so that the machine's load falls on all of them: this process alone; pools of one and of
two workers while this process waits for them; and ``--workers 2`` as ``guts simulate``
runs it, this process playing beside a pool of one. Prints each time, the ratios (the
one-process time over the other's: above 1, the other is faster) and the CPU seconds of
this process (the pool's are not counted).

The fork server is started by the first pool and kept for the run (as in one
``guts simulate``, where it starts once): the first round's pools pay for it.

    python benchmarks/sim_workers.py [--sessions 4000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from machine import cpu_model

from guts.sim import SimSpec, open_executor, simulate
from guts.sim.executors import ProcessPool

WAYS: dict[str, tuple[int, Callable[[], AbstractContextManager[Any]]]] = {
    "this process": (1, nullcontext),
    "a pool of 1": (1, lambda: ProcessPool(1, fast=True)),
    "a pool of 2": (2, lambda: ProcessPool(2, fast=True)),
    "--workers 2": (2, lambda: open_executor("process", 2, fast=True)),
}
"""Each way: the workers ``simulate`` is told of, and the executor (None: this process)."""


def timed(spec: SimSpec, sessions: int, way: str) -> tuple[float, float]:
    """Seconds for the whole run, and this process's CPU seconds in it."""
    workers, executor = WAYS[way]
    start, cpu = time.perf_counter(), time.process_time()
    with executor() as pool:
        summary = simulate(spec, sessions=sessions, executor=pool, workers=workers)
    assert summary.sessions == sessions
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=4_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold", seed=7, fast=True)
    simulate(spec, sessions=1000)  # compiled here once, as a run's first batch would
    print(f"{cpu_model()} ({os.cpu_count()} CPUs), Python {platform.python_version()}")
    print(f"{args.sessions:,} sessions of four-player two-card Guts, threshold bots, --fast")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    times: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    for _ in range(args.repeats):
        for way in WAYS:
            times[way].append(timed(spec, args.sessions, way))
    alone = [seconds for seconds, _ in times["this process"]]
    for way, runs in times.items():
        ratios = [a / s for a, (s, _) in zip(alone, runs, strict=True)]
        print(f"{way:>14}: {', '.join(f'{s:.2f}' for s, _ in runs)} s "
              f"(this process's CPU {', '.join(f'{c:.2f}' for _, c in runs)}); "
              f"one process / this: {', '.join(f'{r:.2f}' for r in ratios)} "
              f"(median {statistics.median(ratios):.2f}x)")  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
