"""Imported by the process pool's fork server for a ``--fast`` run: the fast path's loop
is loaded (compiled, or from numba's cache) once there, and every worker forked from it
starts with it ready instead of loading it again (a second or more each)."""

from __future__ import annotations

from guts.sim.executors import run_batch
from guts.sim.runner import SimSpec

run_batch(SimSpec.make("two-card-guts", players=2, bots=("threshold",), fast=True), 0, 1)
