"""Simulation benchmark: ``guts.sim`` sessions per second, its overhead, and scaling.

Measurements on fixed, seeded workloads (so every run plays the same deals):

- per family, sessions and deals per second of ``guts.sim.simulate`` on the engine in
  this process, with random bots (the engine's own speed) and with the default sensible
  bots, and in the same run PokerKit's random six-player Five Card Draw hands per second
  (``benchmarks/engine.py``'s workload) against the engine's six-player ``five-card-draw``
  with random bots;
- the simulator's overhead: the same sessions played by a bare loop (start each deal,
  ask each pending seat's bot, act) against ``simulate`` with its summaries;
- the vectorized Guts path (``--fast``): deals per second of its compiled loop alone and
  of ``simulate`` with its summaries, four players of two-card Guts and a few variants,
  against the engine playing the same game with the same bots;
- scaling: an engine workload and a fast-path workload on 1 and 2 workers of a process
  pool and of a local Dask cluster (``--executor dask``), with the wall-clock speed-up
  over one process;
- with ``--against COMMIT`` only the fast path of ``COMMIT`` (its ``guts.sim`` kernel,
  vector and summary modules, loaded beside this tree's) against this tree's, timed in
  turn in this process, so that a change of the machine's load falls on both: the loop's
  deals per CPU second and ``fast_batch``'s (the loop and its summary).

Installs nothing: PokerKit comes with the ``bench`` extra, numba with ``fast``, Dask with
``dask`` (all three with ``test``).

    python benchmarks/simulate.py [--scale 1.0] [--skip-dask] [--fast-only]
    python benchmarks/simulate.py --against COMMIT [--scale 1.0] [--repeats 7]
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
from typing import Any

from engine import pokerkit_draw  # benchmarks/engine.py, beside this file
from machine import cpu_model

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
    print("| game | players | bots | sessions | deals | sessions/s | deals/s "
          "| deals per CPU s |")  # fmt: skip
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for preset, options in FAMILIES:
        for bots in ("random", "sensible"):
            spec = SimSpec.make(preset, bots=bots, options=options, seed=1, max_deals=100)
            sessions = max(2, int((40 if bots == "random" else 12) * scale))
            _family_row(spec, sessions)
    draw = SimSpec.make("five-card-draw", players=6, bots="random", seed=1, max_deals=100)
    wall, cpu, deals = _family_row(draw, max(4, int(60 * scale)))
    run = pokerkit_draw(max(0.5, 2 * scale), seed=1)
    print(f"| PokerKit fixed-limit five-card draw (engine.py) | 6 | random | "
          f"{run.hands:,} hands | {run.hands:,} | {run.hands / run.seconds:,.1f} "
          f"| {run.hands / run.seconds:,.0f} | {run.cpu_rate:,.0f} |")  # fmt: skip
    print(f"\nsix-player five-card draw with random bots: guts.sim {deals / wall:,.0f} deals/s "
          f"({deals / cpu:,.0f} per CPU s), PokerKit {run.rate:,.0f} hands/s "
          f"({run.cpu_rate:,.0f} per CPU s): {deals / wall / run.rate:.2f}x by the clock, "
          f"{deals / cpu / run.cpu_rate:.2f}x per CPU second")  # fmt: skip


def _family_row(spec: SimSpec, sessions: int) -> tuple[float, float, int]:
    """Time ``sessions`` sessions of ``spec`` and print their row; (wall, CPU, deals)."""
    simulate(spec, sessions=1)  # warm up: the rankings' tables load on first use
    wall, cpu, summary = timed(partial(simulate, spec, sessions=sessions))
    deals: int = summary.deals  # type: ignore[attr-defined]
    name = spec.preset + "".join(f" {k}={v}" for k, v in spec.options)
    print(f"| {name} | {spec.players} | {','.join(spec.bots)} | {sessions} | {deals:,} "
          f"| {sessions / wall:,.1f} | {deals / wall:,.0f} | {deals / cpu:,.0f} |")  # fmt: skip
    return wall, cpu, deals


FAST = [
    ("two-card-guts", "threshold", {}),
    ("two-card-guts", "threshold,random", {}),
    ("two-card-guts", "threshold", {"continue-after-empty": "yes", "pot-limit": "20"}),
    ("simultaneous-guts", "threshold", {}),
    ("three-card-guts", "threshold", {}),
    ("ghost-guts", "threshold", {}),
    ("two-card-guts", "threshold,random", {"credit": "no", "continue-after-empty": "yes"}),
    ("two-card-guts", "threshold", {"dealer-option": "yes"}),
    ("two-card-guts", "equilibrium,threshold", {}),
    ("hi-lo-guts", "threshold", {}),
]
"""The fast path's workloads: four players, threshold (and random, equilibrium) bots."""

PLAIN = """
import json, sys, time
from guts.sim import SimSpec
from guts.sim.vector import check_fast, compiled, fast_game, run_fast
preset, bots, options, count = json.loads(sys.argv[1])
spec = SimSpec.make(preset, bots=bots, options=options, seed=5, max_deals=100, fast=True)
game = fast_game(check_fast(spec), spec.players)
run_fast(game, spec.seat_bots, seed=5, first=0, count=10, buy_in=100, max_deals=100)
cpu = time.process_time()
played = run_fast(game, spec.seat_bots, seed=5, first=0, count=count, buy_in=100, max_deals=100)
cpu = time.process_time() - cpu
print(json.dumps([compiled(), int(played.deals.sum()), cpu]))
"""
"""One fast-path workload timed in a fresh process (``GUTS_SIM_PLAIN`` set or not)."""


def _fast_loop(game: Any, spec: SimSpec, count: int) -> Any:
    """The fast path's compiled loop alone on sessions 0 to ``count - 1`` of ``spec``."""
    from guts.sim.vector import Played, run_fast

    played = run_fast(game, spec.seat_bots, seed=spec.seed, first=0, count=count,
                      buy_in=spec.buy_in, max_deals=spec.max_deals)  # fmt: skip
    assert isinstance(played, Played)
    return played


def fast_path(scale: float, repeats: int = 3) -> None:
    from guts.sim.vector import check_fast, fast_game

    target = max(20_000, int(4_000_000 * scale))
    print(
        f"\nthe vectorized Guts path, 4 players, sessions of at most 100 deals for about "
        f"{target:,} deals a run, median of {repeats}; the engine on the same game with "
        f"the same bots for {max(100, int(1000 * scale)):,} deals:"
    )
    print("| game | bots | deals | loop deals/s | loop deals per CPU s | simulate deals/s "
          "| engine deals/s | fast / engine |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for preset, bots, options in FAST:
        spec = SimSpec.make(preset, bots=bots, options=options, seed=5, max_deals=100,
                            fast=True)  # fmt: skip
        game = fast_game(check_fast(spec), spec.players)
        trial = _fast_loop(game, spec, 1000)  # warm up: loads the loop, builds the tables
        sessions = max(100, int(target * 1000 / int(trial.deals.sum())))
        walls, cpus = [], []
        for _ in range(repeats):
            wall, cpu, played = timed(partial(_fast_loop, game, spec, sessions))
            walls.append(wall)
            cpus.append(cpu)
        deals = int(played.deals.sum())  # type: ignore[attr-defined]
        sim_wall, _, _ = timed(partial(simulate, spec, sessions=sessions))
        engine = SimSpec.make(preset, bots=bots, options=options, seed=5, max_deals=100)
        simulate(engine, sessions=2)
        engine_deals = max(100, int(1000 * scale))
        engine_wall, _, summary = timed(partial(simulate, engine, deals=engine_deals))
        engine_rate = summary.deals / engine_wall  # type: ignore[attr-defined]
        rate = deals / statistics.median(walls)
        name = preset + "".join(f" {k}={v}" for k, v in options.items())
        print(f"| {name} | {bots} | {deals:,} | {rate:,.0f} "
              f"| {deals / statistics.median(cpus):,.0f} | {deals / sim_wall:,.0f} "
              f"| {engine_rate:,.0f} | {rate / engine_rate:,.0f}x |")  # fmt: skip


def plain_loop(scale: float) -> None:
    """The fast path's loop uncompiled (numpy, as without numba) against compiled, each
    in a fresh process on the same sessions."""
    import json
    import subprocess
    import sys

    sessions = max(500, int(10_000 * scale))
    print(
        f"\nthe loop without numba (GUTS_SIM_PLAIN=1, {sessions:,} sessions) and with "
        f"({200 * sessions:,}), two-card-guts, 4 players, threshold and random bots:"
    )
    rates = {}
    for plain, count in (("1", sessions), ("", 200 * sessions)):
        argument = json.dumps(["two-card-guts", "threshold,random", {}, count])
        env = os.environ | {"GUTS_SIM_PLAIN": plain}
        done = subprocess.run([sys.executable, "-c", PLAIN, argument], env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
        compiled, deals, cpu = json.loads(done.stdout)
        rates[compiled] = deals / cpu
        print(f"- {'compiled (numba)' if compiled else 'plain numpy'}: {deals:,} deals, "
              f"{deals / cpu:,.0f} deals per CPU s")  # fmt: skip
    print(f"- compiled / plain: {rates[True] / rates[False]:,.0f}x")


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


def scaling(scale: float, dask: bool, engine: bool = True) -> None:
    if engine:
        spec = SimSpec.make("three-five-seven", bots="sensible,random", seed=3, max_deals=100)
        _scaling(spec, max(8, int(160 * scale)), dask)
    fast = SimSpec.make("two-card-guts", bots="threshold,random", seed=3, fast=True)
    _scaling(fast, max(10_000, int(4_000_000 * scale)), dask)


def _scaling(spec: SimSpec, sessions: int, dask: bool) -> None:
    path = " on the fast path" if spec.fast else ""
    print(f"\nscaling: {sessions:,} {spec.preset} sessions ({', '.join(spec.bots)}){path}")
    print("| executor | workers | wall s | sessions/s | deals/s | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
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
        deals = summary.deals
        print(f"| {label} | {workers} | {wall:.2f} | {sessions / wall:,.1f} "
              f"| {deals / wall:,.0f} | {base / wall:.2f}x |")  # fmt: skip
    print(f"load {os.getloadavg()[0]:.1f}")


def _executor(label: str, workers: int) -> AbstractContextManager[Executor | None]:
    """The executor of a row of the scaling table (a pool even for one worker)."""
    if label == "process pool":
        return _process_pool(workers)
    return open_executor("dask" if label == "dask" else "process", workers)


THEN = ("kernel", "vector", "summary")
"""The fast path's modules, loaded from another commit by :func:`against`."""


def _then(commit: str) -> Any:
    """The ``guts.sim.vector`` module of ``commit`` (with its kernel and summary), loaded
    from a temporary folder as ``then_vector``."""
    import subprocess
    import sys
    import tempfile

    folder = tempfile.mkdtemp(prefix="guts-then-")
    for name in THEN:
        text = subprocess.run(["git", "show", f"{commit}:src/guts/sim/{name}.py"],
                              check=True, capture_output=True, text=True).stdout  # fmt: skip
        text = text.replace("from guts.sim import kernel", "import then_kernel as kernel")
        text = text.replace("from guts.sim.summary import", "from then_summary import")
        with open(os.path.join(folder, f"then_{name}.py"), "w") as file:
            file.write(text)
    sys.path.insert(0, folder)
    import then_vector  # type: ignore[import-not-found]

    return then_vector


def against(commit: str, scale: float, repeats: int) -> None:
    """The fast path of ``commit`` against this tree's on :data:`FAST`, in turn in this
    process: deals per CPU second of the loop and of ``fast_batch``, median of
    ``repeats``."""
    from guts.sim import vector

    then = _then(commit)
    target = max(20_000, int(2_000_000 * scale))
    print(f"the fast path at {commit} (then) and in this tree (now), 4 players, sessions of "
          f"at most 100 deals, about {target:,} deals a run, in turn, median of {repeats} "
          "(best), deals per CPU second:")  # fmt: skip
    print("| game | bots | then loop | now loop | gain | then fast_batch | now fast_batch "
          "| gain |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for preset, bots, options in FAST:
        spec = SimSpec.make(preset, bots=bots, options=options, seed=5, max_deals=100,
                            fast=True)  # fmt: skip
        cells = _against_row(spec, {"then": then, "now": vector}, target, repeats)
        name = preset + "".join(f" {k}={v}" for k, v in options.items())
        print(f"| {name} | {bots} | {' | '.join(cells)} |", flush=True)


def _loop_of(module: Any, game: Any, spec: SimSpec, count: int) -> int:
    """Sessions 0 to ``count - 1`` of ``spec`` on ``module``'s loop alone: the deals."""
    played = module.run_fast(game, spec.seat_bots, seed=spec.seed, first=0, count=count,
                             buy_in=spec.buy_in, max_deals=spec.max_deals)  # fmt: skip
    return int(played.deals.sum())


def _batch_of(module: Any, game: Any, spec: SimSpec, count: int) -> int:
    """The same sessions through ``module``'s ``fast_batch`` (with the summary)."""
    return int(module.fast_batch(spec, 0, count)[1].sum())


def _against_row(spec: SimSpec, sides: dict[str, Any], target: int, repeats: int) -> list[str]:
    """The cells of one row of :func:`against`: per kind of run, then and now, the median
    (best) deals per CPU second, and the gain."""
    from guts.sim.vector import check_fast

    rules = check_fast(spec)
    games = {side: module.FastGame(rules, spec.players) for side, module in sides.items()}
    trial = {side: _loop_of(sides[side], games[side], spec, 2000) for side in sides}
    sessions = max(100, int(target * 2000 / trial["now"]))
    cells = []
    for run in (_loop_of, _batch_of):
        rates: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(repeats):
            for side, module in sides.items():
                _, cpu, deals = timed(partial(run, module, games[side], spec, sessions))
                rates[side].append(int(deals) / cpu)  # type: ignore[call-overload]
        median = {side: statistics.median(rates[side]) for side in sides}
        cells += [f"{median[side] / 1e6:.2f}M ({max(rates[side]) / 1e6:.2f}M)" for side in sides]
        cells.append(f"{100 * (median['now'] / median['then'] - 1):+.0f}%")
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="More or fewer sessions.")
    parser.add_argument("--skip-dask", action="store_true", help="Leave out Dask.")
    parser.add_argument(
        "--fast-only",
        action="store_true",
        help="Only the vectorized path (its loop, without numba, scaling).",
    )
    parser.add_argument(
        "--against",
        metavar="COMMIT",
        help="Only the fast path of COMMIT against this tree's, in turn.",
    )
    parser.add_argument("--repeats", type=int, default=7, help="Runs a row (--against).")
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores ({cpu_model()}), Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    if args.against:
        against(args.against, args.scale, args.repeats)
        print(f"\nload at the end {os.getloadavg()[0]:.1f}")
        return
    if not args.fast_only:
        per_family(args.scale)
        overhead(args.scale)
    fast_path(args.scale)
    print(f"load {os.getloadavg()[0]:.1f}")
    plain_loop(args.scale)
    scaling(args.scale, dask=not args.skip_dask, engine=not args.fast_only)
    print(f"\nload at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
