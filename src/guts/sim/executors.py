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

A worker that dies (killed, out of memory) loses its batches, not the run: the process
pool is started again and every batch in flight played again (the same seeds, so the same
result), and Dask's or Ray's lost tasks, where they do not retry them themselves, are
submitted again; ``tell`` is told each time. A batch lost :data:`RETRIES` times ends the
run with a GutsError naming it.

``--executor process`` with ``--workers n`` plays batches in this process too, beside a pool
of ``n - 1`` (:class:`ProcessPool` with ``here``): this process would otherwise only wait,
and it plays from the first moment, while the pool's workers start.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.errors import GutsError, OptionError
from guts.sim.runner import SimSpec, play_session
from guts.sim.summary import Summary

__all__ = ["EXECUTORS", "Batch", "Progress", "open_executor", "run_batch", "simulate"]

EXECUTORS = ("process", "dask", "ray")
"""The executors ``--executor`` names."""

Progress = Callable[[int, int], None]
"""Told the sessions and the deals played so far, after each batch."""

Tell = Callable[[str], None]
"""Told, in a line, when a batch was lost with its worker and is played again."""

RETRIES = 3
"""How many times a lost batch is played again before the run gives up."""


@dataclass(frozen=True)
class Batch:
    """The summary of consecutive sessions and, where asked for, how many deals each
    lasted (an array, sent back from a worker as its bytes; empty where not asked for)."""

    first: int
    summary: Summary
    lengths: NDArray[np.int64]


def run_batch(
    spec: SimSpec, first: int, count: int, cut: int | None = None, *, lengths: bool = True
) -> Batch:
    """Play sessions ``first`` to ``first + count - 1`` of ``spec`` (the last of them
    stopped after ``cut`` deals, if given) and summarize them; ``lengths``: with each
    session's length (a run of so many deals needs them; a run of so many sessions
    does not, and a worker then sends back only the summary)."""
    if spec.fast:
        from guts.sim.vector import fast_batch

        fast, played = fast_batch(spec, first, count, cut)
        return Batch(first, fast, played if lengths else played[:0].copy())
    summary = Summary.empty(spec.seat_bots)
    deals = []
    last = first + count - 1
    for index in range(first, first + count):
        result = play_session(spec, index, cut if index == last else None)
        summary.add(result)
        deals.append(result.deals)
    return Batch(first, summary, np.array(deals if lengths else [], dtype=np.int64))


def simulate(
    spec: SimSpec,
    *,
    sessions: int | None = None,
    deals: int | None = None,
    executor: Executor | None = None,
    workers: int = 1,
    batch: int | None = None,
    progress: Progress | None = None,
    tell: Tell | None = None,
) -> Summary:
    """The summary of ``sessions`` sessions of ``spec`` (numbers 0, 1, ...), or of as many
    as make ``deals`` deals (the last session stopped when they are played).

    Batches run on ``executor`` (None: in this process; a :class:`ProcessPool` with
    ``here``: in this process too), about ``workers`` of them at once; ``batch`` fixes
    the sessions per batch (by default a few batches per worker, at most 64 sessions
    each, 65,536 on the fast path; on workers, smaller towards the end). ``tell`` hears of
    batches played again (a worker died)."""
    if (sessions is None) == (deals is None):
        raise OptionError("give either --sessions or --deals (not both)")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if batch is not None and batch < 1:
        raise OptionError(f"a batch holds at least 1 session, not {batch}")
    if spec.fast:
        from guts.sim.vector import check_fast

        check_fast(spec)
    runner = _Runner(spec, executor, workers, progress, tell, lengths=sessions is None)
    if sessions is not None:
        if sessions < 1:
            raise OptionError(f"--sessions must be at least 1, not {sessions}")
        return runner.sessions(sessions, batch)
    assert deals is not None
    if deals < 1:
        raise OptionError(f"--deals must be at least 1, not {deals}")
    return runner.deals(deals, batch)


def _batch_size(sessions: float, workers: int, fast: bool = False) -> int:
    """A few batches for each worker (so that they finish together), at most 64 sessions
    (on the fast path, 65,536)."""
    return max(1, min(1 << 16 if fast else 64, math.ceil(sessions / (4 * workers))))


LEAST_FAST = 1 << 11
"""The fewest sessions in one of the fast path's last batches on workers (a batch costs
about as much as a few hundred sessions besides its sessions)."""


class _Runner:
    """Submits batches in session order, at most two per worker in flight, and merges
    their summaries in the same order. Beside a :class:`ProcessPool` with ``here``, this
    process plays the next batch itself whenever the oldest in flight is not played yet
    (and while the pool's workers start)."""

    def __init__(
        self,
        spec: SimSpec,
        executor: Executor | None,
        workers: int,
        progress: Progress | None,
        tell: Tell | None = None,
        *,
        lengths: bool = True,
    ) -> None:
        self.spec = spec
        self.executor = executor
        self.tell = tell
        self.lost: dict[int, int] = {}  # how many times each batch (by first session) was lost
        self.here = isinstance(executor, ProcessPool) and executor.here
        if executor is None:
            self.window = 1
        else:
            self.window = 2 * (executor.workers if isinstance(executor, ProcessPool) else workers)
        self.workers = workers
        self.progress = progress
        self.lengths = lengths
        self.summary = Summary.empty(spec.seat_bots)
        self.flight: deque[tuple[int, int, Future[Batch]]] = deque()
        self.mine: set[int] = set()  # the batches in flight played here (by first session)
        self.next = 0

    def _send(self, first: int, count: int) -> Future[Batch]:
        assert self.executor is not None
        return self.executor.submit(run_batch, self.spec, first, count, lengths=self.lengths)

    def _submit(self, count: int) -> None:
        first, self.next = self.next, self.next + count
        future: Future[Batch]
        if self.executor is None:
            future = Future()
            future.set_result(run_batch(self.spec, first, count, lengths=self.lengths))
        else:
            try:
                future = self._send(first, count)
            except BrokenExecutor as error:
                if self.tell is not None:
                    self.tell(f"a worker died ({type(error).__name__}): starting the pool again")
                self._restart()
                future = self._send(first, count)
        self.flight.append((first, count, future))

    def _room(self) -> bool:
        """Whether a batch may be sent now: fewer than the window sent and in flight (and,
        beside a pool that plays here, its workers started)."""
        sent = len(self.flight) - len(self.mine)
        if self.here:
            assert isinstance(self.executor, ProcessPool)
            return sent < self.window and self.executor.started()
        return sent < self.window

    def _play_here(self, count: int) -> bool:
        """Play the next ``count`` sessions in this process if it plays beside the pool and
        would otherwise wait for the oldest batch in flight; whether it did."""
        if not self.here or (self.flight and self.flight[0][2].done()):
            return False
        first, self.next = self.next, self.next + count
        future: Future[Batch] = Future()
        future.set_result(run_batch(self.spec, first, count, lengths=self.lengths))
        self.flight.append((first, count, future))
        self.mine.add(first)
        return True

    def _result(self) -> tuple[int, int, Batch]:
        """The oldest batch in flight, once played: a batch lost with its worker is
        played again (the process pool started again first, with every batch in flight)."""
        while True:
            first, count, future = self.flight[0]
            try:
                batch = future.result()
            except GutsError:
                raise
            except BrokenExecutor as error:
                self._lost(first, count, error)
                self._restart()
                continue
            except Exception as error:  # Dask's KilledWorker, Ray's WorkerCrashedError, ...
                self._lost(first, count, error)
                self.flight[0] = (first, count, self._send(first, count))
                continue
            self.flight.popleft()
            self.mine.discard(first)
            return first, count, batch

    def _lost(self, first: int, count: int, error: BaseException) -> None:
        times = self.lost[first] = self.lost.get(first, 0) + 1
        sessions = f"sessions {first}-{first + count - 1}"
        why = f"{type(error).__name__}: {error}".strip().splitlines()[0]
        if times > RETRIES:
            raise GutsError(f"{sessions} were lost with their worker {times} times ({why}); "
                            "giving up") from error  # fmt: skip
        if self.tell is not None:
            self.tell(f"a worker died ({why}): playing {sessions} again (the same seeds, "
                      "so the same result)")  # fmt: skip

    def _restart(self) -> None:
        """Start the broken process pool again and submit anew every batch in flight that
        was not played."""
        restart = getattr(self.executor, "restart", None)
        if restart is None:
            raise GutsError("a worker died and its executor cannot be started again")
        restart()
        flight: deque[tuple[int, int, Future[Batch]]] = deque()
        for first, count, future in self.flight:
            if not future.done() or future.exception() is not None:
                future = self._send(first, count)
            flight.append((first, count, future))
        self.flight = flight

    def _merge(self, batch: Batch) -> None:
        self.summary.merge(batch.summary)
        if self.progress is not None:
            self.progress(self.summary.sessions, self.summary.deals)

    def _size(self, sessions: int, size: int | None) -> int:
        """The next batch of a run of ``sessions``: ``size`` sessions if given; in one
        process, all of one size; on workers, a few for each of what is left, so that the
        last batches are small and the workers finish together."""
        remaining = sessions - self.next
        if size is None and self.executor is None:
            size = _batch_size(sessions, self.workers, self.spec.fast)
        elif size is None:
            least = LEAST_FAST if self.spec.fast else 1
            size = max(least, _batch_size(remaining, self.workers, self.spec.fast))
        return min(size, remaining)

    def sessions(self, sessions: int, size: int | None) -> Summary:
        try:
            while self.next < sessions or self.flight:
                while self.next < sessions and self._room():
                    self._submit(self._size(sessions, size))
                if self.next >= sessions or not self._play_here(self._size(sessions, size)):
                    self._merge(self._result()[2])
        finally:
            self._cancel()
        return self.summary

    def deals(self, deals: int, size: int | None) -> Summary:
        played = 0
        try:
            while True:
                while self._room():
                    self._submit(size or self._guess(deals - played))
                if self._play_here(size or self._guess(deals - played)):
                    continue
                first, count, batch = self._result()
                total = int(batch.lengths.sum())
                if played + total < deals:
                    played += total
                    self._merge(batch)
                    continue
                # the batch reaches the target: keep its sessions up to the one that does,
                # played again with that one stopped at the deals still wanted
                position = 0
                while played + int(batch.lengths[position]) < deals:
                    played += int(batch.lengths[position])
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
def open_executor(
    kind: str, workers: int, scheduler: str | None = None, *, fast: bool = False
) -> Iterator[Any]:
    """The executor ``--executor kind`` names, shut down on leaving: ``process`` (this
    process beside a pool of ``workers - 1``; None, meaning this process alone, for one
    worker), ``dask`` (a
    client of the Dask scheduler at ``scheduler``, or of a new local cluster of
    ``workers`` processes) or ``ray`` (the Ray cluster at ``scheduler``, or a local one).
    ``fast``: the pool's workers start with the fast path's loop loaded."""
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
    else:  # this process and a pool of the others
        with ProcessPool(workers - 1, fast=fast, here=True) as executor:
            yield executor


class ProcessPool(Executor):
    """A process pool that can be started again when a worker died (which breaks a
    :class:`~concurrent.futures.ProcessPoolExecutor` for good). Its workers start at once,
    on a thread of their own (a worker forked from the fork server waits for it to import
    the simulator and load the loop: a second or more). ``here``: this process plays
    batches beside the pool's ``workers`` (:func:`simulate` does, while they start too)."""

    def __init__(self, workers: int, *, fast: bool = False, here: bool = False) -> None:
        import multiprocessing

        if workers < 1:
            raise OptionError(f"a process pool has at least 1 worker, not {workers}")
        # forkserver: workers are forked from a clean process (never from one running the
        # progress bar's thread), with the simulator already imported
        methods = multiprocessing.get_all_start_methods()
        method = "forkserver" if "forkserver" in methods else "spawn"
        self.context = multiprocessing.get_context(method)
        if method == "forkserver":  # fast: the fast path's loop ready in every worker
            preload = "guts.sim.preload" if fast else "guts.sim.executors"
            # the main script too (`guts`: the command line), which every worker started
            # would otherwise import again
            self.context.set_forkserver_preload(["__main__", preload])
        self.workers = workers
        self.here = here
        self.pool, self.ready, self.starting = self._start()

    def _start(self) -> tuple[Executor, Future[None], threading.Thread]:
        """A new pool, its workers starting on a thread; ``ready`` is done once the calls
        that started them were answered (or the pool broke)."""
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=self.context)
        ready: Future[None] = Future()

        def start() -> None:
            try:  # each call starts a worker until there are enough (none is idle yet)
                asked = [pool.submit(os.getpid) for _ in range(self.workers)]
                for answer in asked:
                    answer.result()
            except BaseException as error:  # the pool broken at its start: submit will say
                ready.set_exception(error)
            else:
                ready.set_result(None)

        thread = threading.Thread(target=start, name="guts-pool-start", daemon=True)
        thread.start()
        return pool, ready, thread

    def started(self) -> bool:
        """Whether the workers have started (or failed to)."""
        return self.ready.done()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.pool.submit(fn, *args, **kwargs)

    def restart(self) -> None:
        """Shut the broken pool down and start a new one."""
        self.shutdown(wait=True, cancel_futures=True)
        self.pool, self.ready, self.starting = self._start()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.starting.join()
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextmanager
def _process_pool(workers: int) -> Iterator[Executor]:
    """A process pool of ``workers`` (``benchmarks/simulate.py`` times it)."""
    with ProcessPool(workers) as pool:
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
    with _stdout_to_stderr():  # Ray prints its own lines ("(raylet) ...") on stdout
        if scheduler is not None:
            ray.init(address=scheduler, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            yield RayExecutor()
        finally:
            ray.shutdown()


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send what is written to standard output (by Python or by anything else in this
    process, to file 1) to standard error, until the block ends."""
    sys.stdout.flush()
    try:
        out = sys.stdout.fileno()
        err = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # not files (captured): Python's only
        saved_stdout = sys.stdout
        sys.stdout = sys.stderr
        try:
            yield
        finally:
            sys.stdout = saved_stdout
        return
    saved = os.dup(out)
    os.dup2(err, out)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, out)
        os.close(saved)
