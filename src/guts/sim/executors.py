"""Running many sessions: in batches, on any :class:`concurrent.futures.Executor`.

:func:`simulate` splits the sessions into batches of consecutive session numbers, plays
each batch with :func:`run_batch` (in this process, or on an executor's workers: a
process pool, a Dask cluster, Ray) and merges the batch summaries in session order.
Session ``i`` is played from its own seeds (:mod:`guts.sim.seeding`) and summaries are
exact (:mod:`guts.sim.summary`), so the result is the same for every executor, number
of workers and batch size:

>>> from concurrent.futures import ThreadPoolExecutor
>>> from guts.sim.runner import SimSpec
>>> spec = SimSpec("two-card-guts", players=3, bots=("threshold",), seed=3)
>>> with ThreadPoolExecutor(2) as pool:
...     simulate(spec, sessions=6, executor=pool, batch=2) == simulate(spec, sessions=6)
True

:func:`open_executor` makes the executor a ``--executor`` option names.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from guts.errors import OptionError
from guts.sim.runner import SimSpec, play_session
from guts.sim.summary import Summary

__all__ = ["EXECUTORS", "Batch", "Progress", "open_executor", "run_batch", "simulate"]

EXECUTORS = ("process", "dask", "ray")
"""The executors ``--executor`` names."""

Progress = Callable[[int, int], None]
"""Told the sessions and the deals played so far, after each batch."""


@dataclass(frozen=True)
class Batch:
    """The summary of consecutive sessions, and how many deals each lasted."""

    first: int
    summary: Summary
    lengths: tuple[int, ...]


def run_batch(spec: SimSpec, first: int, count: int, cut: int | None = None) -> Batch:
    """Play sessions ``first`` to ``first + count - 1`` of ``spec`` (the last of them
    stopped after ``cut`` deals, if given) and summarize them."""
    if spec.fast:
        from guts.sim.vector import fast_batch

        fast, played = fast_batch(spec, first, count, cut)
        return Batch(first, fast, tuple(played.tolist()))
    summary = Summary.empty(spec.seat_bots)
    lengths = []
    last = first + count - 1
    for index in range(first, first + count):
        result = play_session(spec, index, cut if index == last else None)
        summary.add(result)
        lengths.append(result.deals)
    return Batch(first, summary, tuple(lengths))


def simulate(
    spec: SimSpec,
    *,
    sessions: int | None = None,
    deals: int | None = None,
    executor: Executor | None = None,
    workers: int = 1,
    batch: int | None = None,
    progress: Progress | None = None,
) -> Summary:
    """The summary of ``sessions`` sessions of ``spec`` (numbers 0, 1, ...), or of as many
    as make ``deals`` deals (the last session stopped when they are played).

    Batches run on ``executor`` (None: in this process), about ``workers`` of them at
    once; ``batch`` fixes the sessions per batch (by default a few batches per worker,
    at most 64 sessions each)."""
    if (sessions is None) == (deals is None):
        raise OptionError("give either --sessions or --deals (not both)")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if batch is not None and batch < 1:
        raise OptionError(f"a batch holds at least 1 session, not {batch}")
    if spec.fast:
        from guts.sim.vector import check_fast

        check_fast(spec)
    runner = _Runner(spec, executor, workers, progress)
    if sessions is not None:
        if sessions < 1:
            raise OptionError(f"--sessions must be at least 1, not {sessions}")
        return runner.sessions(sessions, batch or _batch_size(sessions, workers, spec.fast))
    assert deals is not None
    if deals < 1:
        raise OptionError(f"--deals must be at least 1, not {deals}")
    return runner.deals(deals, batch)


def _batch_size(sessions: float, workers: int, fast: bool = False) -> int:
    """A few batches for each worker (so that they finish together), at most 64 sessions
    (on the fast path, 65,536)."""
    return max(1, min(1 << 16 if fast else 64, math.ceil(sessions / (4 * workers))))


class _Runner:
    """Submits batches in session order, at most two per worker in flight, and merges
    their summaries in the same order."""

    def __init__(
        self, spec: SimSpec, executor: Executor | None, workers: int, progress: Progress | None
    ) -> None:
        self.spec = spec
        self.executor = executor
        self.window = 2 * workers if executor is not None else 1
        self.workers = workers
        self.progress = progress
        self.summary = Summary.empty(spec.seat_bots)
        self.flight: deque[tuple[int, int, Future[Batch]]] = deque()
        self.next = 0

    def _submit(self, count: int) -> None:
        first, self.next = self.next, self.next + count
        future: Future[Batch]
        if self.executor is None:
            future = Future()
            future.set_result(run_batch(self.spec, first, count))
        else:
            future = self.executor.submit(run_batch, self.spec, first, count)
        self.flight.append((first, count, future))

    def _merge(self, batch: Batch) -> None:
        self.summary.merge(batch.summary)
        if self.progress is not None:
            self.progress(self.summary.sessions, self.summary.deals)

    def sessions(self, sessions: int, size: int) -> Summary:
        try:
            while self.next < sessions or self.flight:
                while self.next < sessions and len(self.flight) < self.window:
                    self._submit(min(size, sessions - self.next))
                _, _, future = self.flight.popleft()
                self._merge(future.result())
        finally:
            self._cancel()
        return self.summary

    def deals(self, deals: int, size: int | None) -> Summary:
        played = 0
        try:
            while True:
                while len(self.flight) < self.window:
                    self._submit(size or self._guess(deals - played))
                first, count, future = self.flight.popleft()
                batch = future.result()
                total = sum(batch.lengths)
                if played + total < deals:
                    played += total
                    self._merge(batch)
                    continue
                # the batch reaches the target: keep its sessions up to the one that does,
                # played again with that one stopped at the deals still wanted
                position = 0
                while played + batch.lengths[position] < deals:
                    played += batch.lengths[position]
                    position += 1
                wanted = deals - played
                if position + 1 < count or batch.lengths[position] != wanted:
                    batch = run_batch(self.spec, first, position + 1, cut=wanted)
                self._merge(batch)
                return self.summary
        finally:
            self._cancel()

    def _guess(self, remaining: int) -> int:
        """A batch size for about ``remaining`` more deals, from the sessions so far."""
        if not self.summary.sessions:
            return 1
        per_session = self.summary.deals / self.summary.sessions
        return _batch_size(remaining / per_session, self.workers, self.spec.fast)

    def _cancel(self) -> None:
        while self.flight:
            self.flight.popleft()[2].cancel()


@contextmanager
def open_executor(kind: str, workers: int, scheduler: str | None = None) -> Iterator[Any]:
    """The executor ``--executor kind`` names, shut down on leaving: ``process`` (a pool
    of ``workers`` processes; None, meaning this process, for one worker), ``dask`` (a
    client of the Dask scheduler at ``scheduler``, or of a new local cluster of
    ``workers`` processes) or ``ray`` (the Ray cluster at ``scheduler``, or a local one)."""
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if kind not in EXECUTORS:
        raise OptionError(f"--executor must be one of {', '.join(EXECUTORS)}, not {kind!r}")
    if scheduler is not None and kind == "process":
        raise OptionError("--scheduler is the address of a Dask or Ray cluster: add "
                          "--executor dask or --executor ray")  # fmt: skip
    if kind == "dask":
        with _dask(workers, scheduler) as executor:
            yield executor
    elif kind == "ray":
        with _ray(workers, scheduler) as executor:
            yield executor
    elif workers == 1:
        yield None
    else:
        with _process_pool(workers) as executor:
            yield executor


@contextmanager
def _process_pool(workers: int) -> Iterator[Executor]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # forkserver: workers are forked from a clean process (never from one running the
    # progress bar's thread), with the simulator already imported
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["guts.sim.executors"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield pool


def _extra(module: str, extra: str) -> Any:
    """``module`` of an optional extra (an OptionError saying what to install if it is
    missing), untyped."""
    from importlib import import_module

    try:
        return import_module(module)
    except ImportError as error:
        raise OptionError(f"--executor {extra} needs {error.name or extra}: "
                          f"pip install 'guts[{extra}]'") from None  # fmt: skip


@contextmanager
def _dask(workers: int, scheduler: str | None) -> Iterator[Executor]:
    distributed = _extra("dask.distributed", "dask")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError) as error:
            raise OptionError(f"--scheduler: cannot reach {scheduler}: {error}") from None
        with client:
            yield client.get_executor(pure=False)
        return
    import logging

    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None,
                     silence_logs=logging.ERROR) as cluster,
        Client(cluster) as client,
    ):  # fmt: skip
        yield client.get_executor(pure=False)


class RayExecutor(Executor):
    """An executor that runs each call as a Ray task (``ray.init`` already called)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        ray = _extra("ray", "ray")
        future: Future[Any] = ray.remote(fn).remote(*args, **kwargs).future()
        return future


@contextmanager
def _ray(workers: int, scheduler: str | None) -> Iterator[Executor]:
    ray = _extra("ray", "ray")
    if scheduler is not None:
        ray.init(address=scheduler, log_to_driver=False)
    else:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        yield RayExecutor()
    finally:
        ray.shutdown()
