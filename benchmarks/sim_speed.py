"""The fast path's speed aim: 10 million deals a CPU second, measured against the engine.

Four-player two-card Guts with threshold bots (sessions of at most 100 deals), in one run:
the compiled loop alone (``guts.sim.vector.run_fast``) handed the sessions as ``simulate``
hands them out (batches of 65,536) and handed all of them in one call, ``guts.sim.simulate``
on the fast path (the loop and its summary), and ``simulate`` on the engine, the same game
and bots. Each fast measure is the median of ``--repeats`` runs of about ``--deals`` deals,
in CPU seconds of this process (user and system, ``os.times``), so that other work on the
machine takes less from the figure than from a wall-clock one; the wall-clock rates are
printed beside, and the system's share of the CPU seconds: one call's outputs (some 80
bytes a session) are new memory the system must fault in, page by page.

    python benchmarks/sim_speed.py [--deals 20000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from machine import cpu_model

from guts.sim import SimSpec, simulate
from guts.sim.vector import check_fast, compiled, fast_game, run_fast

AIM = 10_000_000
"""Deals a CPU second the fast path aims at (issue 30)."""


BATCH = 1 << 16
"""Sessions a call of the loop in batches (``simulate``'s batches on the fast path)."""


def timed(work: Callable[[], Any]) -> tuple[float, float, float, Any]:
    """Wall-clock seconds, CPU seconds (user and system) and the system's part, and the
    result of ``work()``."""
    wall, start = time.perf_counter(), os.times()
    result = work()
    end = os.times()
    system = end.system - start.system
    return time.perf_counter() - wall, end.user - start.user + system, system, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold", seed=5, max_deals=100,
                        fast=True)  # fmt: skip
    game = fast_game(check_fast(spec), spec.players)

    def played(first: int, count: int) -> int:
        """The deals of ``count`` sessions from ``first`` (their arrays freed on return,
        before the next batch's are made, as simulate's batches are)."""
        out = run_fast(game, spec.seat_bots, seed=spec.seed, first=first, count=count,
                       buy_in=spec.buy_in, max_deals=spec.max_deals)  # fmt: skip
        return int(out.deals.sum())  # type: ignore[union-attr]

    def loop(sessions: int, batch: int) -> int:
        return sum(played(first, min(batch, sessions - first))
                   for first in range(0, sessions, batch))  # fmt: skip

    per_session = loop(10_000, BATCH) / 10_000  # also loads the loop and builds the tables
    sessions = max(1000, int(args.deals / per_session))
    print(f"{cpu_model()} ({os.cpu_count()} CPUs), Python {platform.python_version()}, "
          f"loop compiled: {compiled()}")  # fmt: skip
    print(f"four-player two-card Guts, threshold bots, {sessions:,} sessions of at most 100 "
          f"deals a run, median of {args.repeats}")  # fmt: skip
    batched, whole = f"loop, batches of {BATCH:,}", "loop, one call"
    runs: dict[str, Callable[[], int]] = {
        batched: lambda: loop(sessions, BATCH),
        whole: lambda: loop(sessions, sessions),
        "simulate --fast": lambda: simulate(spec, sessions=sessions).deals,
    }
    rows: dict[str, list[tuple[float, float, float]]] = {name: [] for name in runs}
    for _ in range(args.repeats):  # in turn, so that a change of load falls on each
        for name, run in runs.items():
            wall, cpu, system, deals = timed(run)
            rows[name].append((deals / wall, deals / cpu, system / cpu))
    engine = SimSpec.make("two-card-guts", players=4, bots="threshold", seed=5, max_deals=100)
    simulate(engine, sessions=5)
    wall, cpu, system, summary = timed(lambda: simulate(engine, deals=20_000))
    engine_cpu = summary.deals / cpu
    rows["engine"] = [(summary.deals / wall, engine_cpu, system / cpu)]
    print("| path | deals/s | deals per CPU s (range) | system's share | per CPU s / engine's |")
    print("|---|---:|---:|---:|---:|")
    for name, rates in rows.items():
        by_clock = statistics.median(r[0] for r in rates)
        by_cpu = [r[1] for r in rates]
        middle = statistics.median(by_cpu)
        system = statistics.median(r[2] for r in rates)
        print(f"| {name} | {by_clock:,.0f} | {middle:,.0f} ({min(by_cpu):,.0f}-"
              f"{max(by_cpu):,.0f}) | {system:.0%} | {middle / engine_cpu:,.0f}x |")  # fmt: skip
    for name in (batched, whole):
        rate = statistics.median(r[1] for r in rows[name])
        verdict = "met" if rate >= AIM else "not met"
        print(f"aim of {AIM:,} deals per CPU second, the {name}: {verdict}")


if __name__ == "__main__":
    main()
