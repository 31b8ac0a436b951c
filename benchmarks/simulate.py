"""Simulation benchmark: ``guts.sim`` sessions per second, its overhead, and scaling.

Three measurements, each on fixed, seeded workloads (so every run plays the same deals):

- per family, sessions and deals per second of ``guts.sim.simulate`` in this process,
  with random bots (the engine's own speed) and with the default sensible bots;
- the simulator's overhead: the same sessions played by a bare loop (start each deal,
  ask each pending seat's bot, act) against ``simulate`` with its summaries;
- scaling: one workload on 1 and 2 workers of a process pool and of a local Dask
  cluster (``--executor dask``), with the wall-clock speed-up over one process.

Installs nothing: Dask comes with the ``dask`` (and ``test``) extra.

    python benchmarks/simulate.py [--scale 1.0] [--skip-dask]
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import statistics
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import AbstractContextManager
from functools import partial

from guts.bots import RandomPolicy
from guts.sim import SimSpec, open_executor, simulate
from guts.sim.executors import _process_pool
from guts.sim.seeding import session_rngs

FAMILIES = [
    ("two-card-guts", {}),
    ("two-card-guts", {"continue-after-empty": "yes"}),
    ("three-five-seven", {}),
    ("five-card-draw", {}),
    ("bourre", {}),
]
"""One preset of each family (and two-card Guts played on after each pot)."""


def timed(run: Callable[[], object]) -> tuple[float, float, object]:
    """Wall-clock and CPU seconds of ``run()``, and what it returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def bare(spec: SimSpec, sessions: int) -> int:
    """Play ``sessions`` sessions of ``spec`` with random bots and no bookkeeping; the
    deals played."""
    deals = 0
    for index in range(sessions):
        deck, rng = session_rngs(spec.seed, index)
        session = spec.new_session(deck)
        bot = RandomPolicy()
        played = 0
        while not session.is_over:
            if session.deal_over:
                if played >= spec.max_deals:
                    session.stop()
                    break
                session.start_deal()
                played += 1
                continue
            decision = session.pending()[0]
            session.act(decision.seat, bot.choose(session.view(decision.seat), decision, rng))
        deals += played
    return deals


def per_family(scale: float) -> None:
    print("| game | bots | sessions | deals | sessions/s | deals/s | deals per CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for preset, options in FAMILIES:
        for bots in ("random", "sensible"):
            spec = SimSpec.make(preset, bots=bots, options=options, seed=1, max_deals=100)
            sessions = max(2, int((40 if bots == "random" else 12) * scale))
            simulate(spec, sessions=1)  # warm up: the rankings' tables load on first use
            wall, cpu, summary = timed(partial(simulate, spec, sessions=sessions))
            deals = summary.deals  # type: ignore[attr-defined]
            name = preset + "".join(f" {k}={v}" for k, v in options.items())
            print(f"| {name} | {bots} | {sessions} | {deals:,} | {sessions / wall:,.1f} "
                  f"| {deals / wall:,.0f} | {deals / cpu:,.0f} |")  # fmt: skip


def overhead(scale: float, repeats: int = 3) -> None:
    spec = SimSpec.make("two-card-guts", bots="random", seed=2, max_deals=100)
    sessions = max(10, int(300 * scale))
    bare(spec, 2)
    bare_cpu, sim_cpu = [], []
    for _ in range(repeats):  # in turn, so a change in the machine's load falls on both
        _, cpu, deals = timed(lambda: bare(spec, sessions))
        bare_cpu.append(cpu)
        _, cpu, summary = timed(lambda: simulate(spec, sessions=sessions))
        sim_cpu.append(cpu)
        assert summary.deals == deals  # type: ignore[attr-defined]
    bare_rate = int(deals) / statistics.median(bare_cpu)  # type: ignore[call-overload]
    sim_rate = int(deals) / statistics.median(sim_cpu)  # type: ignore[call-overload]
    print(f"\noverhead: {sessions} two-card Guts sessions with random bots, {deals:,} deals, "
          f"median of {repeats}: bare loop {bare_rate:,.0f} deals per CPU s, simulate "
          f"{sim_rate:,.0f} ({100 * (bare_rate / sim_rate - 1):+.0f}% time)")  # fmt: skip


def scaling(scale: float, dask: bool) -> None:
    spec = SimSpec.make("three-five-seven", bots="sensible,random", seed=3, max_deals=100)
    sessions = max(8, int(160 * scale))
    print(f"\nscaling: {sessions} three-five-seven sessions (sensible, random)")
    print("| executor | workers | wall s | sessions/s | speed-up |")
    print("|---|---:|---:|---:|---:|")
    kinds = [("this process", 1), ("process pool", 1), ("process pool", 2)]
    kinds += [("dask", 1), ("dask", 2)] if dask else []
    base = None
    first = None
    for label, workers in kinds:
        start = time.perf_counter()  # the pool's or cluster's start-up counts
        with _executor(label, workers) as pool:
            summary = simulate(spec, sessions=sessions, executor=pool, workers=workers)
        wall = time.perf_counter() - start
        first = first or summary
        assert summary == first, "the summary depends on the executor"
        base = base or wall
        print(f"| {label} | {workers} | {wall:.2f} | {sessions / wall:,.1f} "
              f"| {base / wall:.2f}x |")  # fmt: skip


def _executor(label: str, workers: int) -> AbstractContextManager[Executor | None]:
    """The executor of a row of the scaling table (a pool even for one worker)."""
    if label == "process pool":
        return _process_pool(workers)
    return open_executor("dask" if label == "dask" else "process", workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="More or fewer sessions.")
    parser.add_argument("--skip-dask", action="store_true", help="Leave out Dask.")
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    per_family(args.scale)
    overhead(args.scale)
    scaling(args.scale, dask=not args.skip_dask)


if __name__ == "__main__":
    main()
