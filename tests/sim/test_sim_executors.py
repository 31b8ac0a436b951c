"""Many sessions on executors: the same summary whatever the workers and batches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Future, ThreadPoolExecutor
from typing import Any

import pytest

from guts.errors import GutsError, OptionError
from guts.sim import SimSpec, open_executor, play_session, report, simulate
from guts.sim.executors import ProcessPool

SPEC = SimSpec.make("two-card-guts", players=4, bots="threshold,random", buy_in=20, seed=21)


def test_the_summary_is_the_same_for_any_batches_and_workers() -> None:
    alone = simulate(SPEC, sessions=24)
    with ThreadPoolExecutor(3) as pool:
        for batch in (1, 5, 24):
            assert simulate(SPEC, sessions=24, executor=pool, workers=3, batch=batch) == alone
    with open_executor("process", 2) as pool:
        assert pool is not None
        assert simulate(SPEC, sessions=24, executor=pool, workers=2) == alone
    assert alone.sessions == 24


def test_sessions_are_numbered_from_zero_in_order() -> None:
    summary = simulate(SPEC, sessions=3)
    lengths = [play_session(SPEC, index).deals for index in range(3)]
    assert summary.deals == sum(lengths)


FAST = SimSpec.make("two-card-guts", players=4, bots="threshold,random", buy_in=20, seed=5,
                    fast=True)  # fmt: skip


@pytest.mark.parametrize("plan", [{"sessions": 5000}, {"deals": 9000}])
def test_this_process_and_a_pool_give_the_same_report_as_one_process(
    plan: dict[str, int],
) -> None:
    alone = report(FAST, simulate(FAST, **plan), plan)  # type: ignore[arg-type]
    with open_executor("process", 3, fast=True) as pool:
        assert isinstance(pool, ProcessPool) and pool.here and pool.workers == 2
        for batch in (None, 700):
            summary = simulate(FAST, executor=pool, workers=3, batch=batch, **plan)  # type: ignore[arg-type]
            assert json.dumps(report(FAST, summary, plan)) == json.dumps(alone)


def test_this_process_plays_every_batch_while_the_pool_has_not_started() -> None:
    class Starting(ProcessPool):
        sent = 0

        def started(self) -> bool:
            return False

        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            self.sent += 1
            return super().submit(fn, *args, **kwargs)

    alone = simulate(SPEC, sessions=12)
    with Starting(1, here=True) as pool:
        assert simulate(SPEC, sessions=12, executor=pool, workers=2, batch=3) == alone
        assert pool.sent == 0


@pytest.mark.parametrize("wanted", [1, 7, 40])
def test_deals_plays_exactly_that_many_deals(wanted: int) -> None:
    alone = simulate(SPEC, deals=wanted)
    assert alone.deals == wanted
    with ThreadPoolExecutor(2) as pool:
        for batch in (None, 1, 3):
            parallel = simulate(SPEC, deals=wanted, executor=pool, workers=2, batch=batch)
            assert parallel == alone
    plan = {"deals": wanted}
    assert report(SPEC, alone, plan) == report(SPEC, parallel, plan)


def test_progress_is_reported_after_each_batch() -> None:
    seen: list[tuple[int, int]] = []
    summary = simulate(SPEC, sessions=5, batch=2, progress=lambda s, d: seen.append((s, d)))
    assert [s for s, _ in seen] == [2, 4, 5] and seen[-1][1] == summary.deals


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({}, "either --sessions or --deals"),
        ({"sessions": 2, "deals": 2}, "either --sessions or --deals"),
        ({"sessions": 0}, "--sessions must be at least 1"),
        ({"deals": 0}, "--deals must be at least 1"),
        ({"sessions": 2, "workers": 0}, "--workers must be at least 1"),
    ],
)
def test_bad_plans_are_refused(arguments: dict[str, int], error: str) -> None:
    with pytest.raises(OptionError, match=error):
        simulate(SPEC, **arguments)  # type: ignore[arg-type]


def test_open_executor_refuses_what_it_cannot_make() -> None:
    with pytest.raises(OptionError, match="--executor must be one of process, dask, ray"):
        open_executor("threads", 2).__enter__()
    with pytest.raises(OptionError, match="--scheduler is the address"):
        open_executor("process", 2, "tcp://127.0.0.1:8786").__enter__()
    with pytest.raises(OptionError, match="--workers must be at least 1"):
        open_executor("process", 0).__enter__()
    with open_executor("process", 1) as pool:
        assert pool is None  # one worker: this process


def _kill_once(pid: int) -> Callable[[int, int], None]:
    """A progress callback that kills the worker ``pid`` after the first batch."""
    killed: list[int] = []

    def progress(sessions: int, deals: int) -> None:
        if not killed:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    return progress


def _until_broken(pool: Any) -> Callable[[int, int], None]:
    """A progress callback that kills one of ``pool``'s workers after the first batch and
    returns once the pool has noticed (else the other worker may play every batch left
    before the pool sees the death, and no batch is lost: a race a loaded machine wins)."""
    kill = _kill_once(pool.submit(os.getpid).result())
    noticed: list[bool] = []

    def progress(sessions: int, deals: int) -> None:
        kill(sessions, deals)
        deadline = time.monotonic() + 30
        while not noticed and time.monotonic() < deadline:
            try:
                pool.submit(os.getpid)
            except BrokenExecutor:
                noticed.append(True)
            time.sleep(0.01)

    return progress


def test_a_killed_process_worker_loses_no_batch() -> None:
    alone = simulate(SPEC, sessions=40)
    told: list[str] = []
    # every batch on the pool's two workers (none played in this process, which could
    # otherwise play all that is left before the first batch comes back): batches are
    # still to be sent when the pool has noticed the death
    with ProcessPool(2) as pool:
        summary = simulate(SPEC, sessions=40, executor=pool, workers=2, batch=2,
                           progress=_until_broken(pool), tell=told.append)  # fmt: skip
    assert summary == alone  # the lost batches played again from the same seeds
    assert told and "a worker died" in told[0]


def test_a_killed_dask_worker_loses_no_batch() -> None:
    pytest.importorskip("dask.distributed")
    alone = simulate(SPEC, sessions=40)
    with open_executor("dask", 2) as pool:
        pid = pool.submit(os.getpid).result()
        summary = simulate(SPEC, sessions=40, executor=pool, workers=2, batch=2,
                           progress=_kill_once(pid))  # fmt: skip
    assert summary == alone


def test_a_batch_lost_again_and_again_ends_the_run_in_one_line() -> None:
    class Dying(ThreadPoolExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            future: Future[Any] = Future()
            future.set_exception(ConnectionError("the worker is gone"))
            return future

    with Dying(1) as pool, pytest.raises(GutsError, match="lost with their worker 4 times"):
        simulate(SPEC, sessions=4, executor=pool, workers=1, tell=lambda line: None)


@pytest.mark.slow  # about a minute: a Ray cluster started twice
def test_with_ray_a_killed_worker_leaves_nothing_but_the_json_on_stdout() -> None:
    pytest.importorskip("ray")
    psutil = pytest.importorskip("psutil")
    command = [sys.executable, "-m", "guts", "simulate", "two-card-guts", "--bots",
               "threshold,random", "--sessions", "400", "--seed", "4", "--workers", "2",
               "--executor", "ray", "--json"]  # fmt: skip
    alone = subprocess.run([*command[:-5], "--json"], capture_output=True, text=True,
                           check=True)  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and run.poll() is None and time.monotonic() < deadline:
        for child in psutil.Process(run.pid).children(recursive=True):
            try:
                if child.cmdline()[:1] == ["ray::run_batch"]:
                    child.kill()
                    killed = child.pid
                    break
            except psutil.Error:
                continue
        time.sleep(0.05)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert killed is not None, "no Ray worker was seen playing a batch"
    assert json.loads(out) == json.loads(alone.stdout)  # nothing else on stdout
