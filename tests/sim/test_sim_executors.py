"""Many sessions on executors: the same summary whatever the workers and batches."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from guts.errors import OptionError
from guts.sim import SimSpec, open_executor, play_session, report, simulate

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
