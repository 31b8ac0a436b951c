"""Fast-path scaling: ``guts simulate --fast`` in this process against process pools.

Four-player two-card Guts with threshold bots on the fast path (``--fast``), a fixed
seeded workload of ``--sessions`` sessions (4,000,000 by default: about 1.5 s in one
process), timed end to end as ``guts simulate`` runs it: the pool started, every batch
played and sent back, the summaries merged, the pool shut down. Three ways, alternated
``--repeats`` times in one run so that the machine's load falls on all of them: this
process alone, a process pool of one worker and of two. Prints each time and the ratios
(the one-process time over the pool's: above 1, the pool is faster).

    python benchmarks/sim_workers.py [--sessions 4000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from contextlib import nullcontext

from machine import cpu_model

from guts.sim import SimSpec, simulate
from guts.sim.executors import ProcessPool


def timed(spec: SimSpec, sessions: int, workers: int) -> float:
    """Seconds for the whole run on ``workers`` pool workers (0: this process)."""
    start = time.perf_counter()
    with ProcessPool(workers, fast=True) if workers else nullcontext() as pool:
        summary = simulate(spec, sessions=sessions, executor=pool, workers=max(workers, 1))
    assert summary.sessions == sessions
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=4_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold", seed=7, fast=True)
    simulate(spec, sessions=1000)  # compiled here once, as a run's first batch would
    print(f"{cpu_model()} ({os.cpu_count()} CPUs), Python {platform.python_version()}")
    print(f"{args.sessions:,} sessions of four-player two-card Guts, threshold bots, --fast")
    times: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for _ in range(args.repeats):
        for workers in times:
            times[workers].append(timed(spec, args.sessions, workers))
    alone = times[0]
    for workers, seconds in times.items():
        where = "this process" if not workers else f"a pool of {workers}"
        ratios = [a / s for a, s in zip(alone, seconds, strict=True)]
        print(f"{where:>14}: {', '.join(f'{s:.2f}' for s in seconds)} s; "
              f"one process / this: {', '.join(f'{r:.2f}' for r in ratios)} "
              f"(median {statistics.median(ratios):.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
