"""Simulating whole sessions on the engine, with bots in every seat, at scale.

- :mod:`guts.sim.runner`: what to simulate (:class:`SimSpec`) and one session played out;
- :mod:`guts.sim.seeding`: each session's seeds, split with ``numpy.random.SeedSequence``;
- :mod:`guts.sim.outcomes`: what each deal came to (showdown, uncontested, nobody in);
- :mod:`guts.sim.stats` and :mod:`guts.sim.summary`: exact statistics, merged by adding;
- :mod:`guts.sim.executors`: batches of sessions on any ``concurrent.futures.Executor``;
- :mod:`guts.sim.report`: the JSON report and its tables;
- :mod:`guts.sim.vector` and :mod:`guts.sim.kernel`: the vectorized Guts path
  (``--fast``, numba), which agrees with the engine deal by deal;
- :mod:`guts.sim.plots`: bankrolls, pots, EV by seat, A against B, census categories
  (matplotlib).

>>> spec = SimSpec.make("two-card-guts", players=3, bots="threshold,random", seed=5)
>>> summary = simulate(spec, sessions=4)
>>> summary.sessions, sum(stats.net.x for stats in summary.seats)
(4, 0)
"""

from __future__ import annotations

from guts.sim.executors import open_executor, run_batch, simulate
from guts.sim.report import render, report
from guts.sim.runner import SessionResult, SimSpec, play_session
from guts.sim.summary import Summary

__all__ = [
    "SessionResult",
    "SimSpec",
    "Summary",
    "open_executor",
    "play_session",
    "render",
    "report",
    "run_batch",
    "simulate",
]
