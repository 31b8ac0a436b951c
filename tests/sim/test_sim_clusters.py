"""Simulating on a cluster: Dask (two worker processes) and Ray give one process's result."""

from __future__ import annotations

import json
import logging

import pytest

from guts.sim import SimSpec, report, simulate
from guts.sim.executors import RayExecutor, open_executor

SPEC = SimSpec.make("three-five-seven", players=4, bots="sensible,random", buy_in=15, seed=9,
                    max_deals=20)  # fmt: skip
PLAN = {"sessions": 8}


def json_of(executor: object = None, workers: int = 1) -> str:
    summary = simulate(SPEC, sessions=8, executor=executor, workers=workers, batch=2)  # type: ignore[arg-type]
    return json.dumps(report(SPEC, summary, PLAN))


def test_a_dask_cluster_of_two_worker_processes_gives_one_process_result() -> None:
    distributed = pytest.importorskip("dask.distributed")
    alone = json_of()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=None, silence_logs=logging.ERROR) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        assert json_of(client.get_executor(pure=False), workers=2) == alone
        # and through --scheduler, the address of a running cluster
        with open_executor("dask", 2, cluster.scheduler_address) as executor:
            assert json_of(executor, workers=2) == alone


def test_a_local_dask_cluster_from_open_executor() -> None:
    pytest.importorskip("dask.distributed")
    with open_executor("dask", 2) as executor:
        assert json_of(executor, workers=2) == json_of()


def test_ray_gives_one_process_result() -> None:
    pytest.importorskip(
        "ray", reason="Ray does not install on this Python (the test extra pulls it where it does)"
    )
    with open_executor("ray", 2) as executor:
        assert isinstance(executor, RayExecutor)
        assert json_of(executor, workers=2) == json_of()
