"""Counting the fast path's arrays at once: exactly what counting session by session gives."""

from __future__ import annotations

import numpy as np
import pytest

from guts.sim.outcomes import OUTCOMES
from guts.sim.runner import SessionResult, SimSpec
from guts.sim.summary import Summary
from guts.sim.vector import fast_batch

BOTS = ("threshold", "random", "threshold", "equilibrium")


@pytest.mark.parametrize("largest", [60, 1 << 40])
def test_arrays_counted_at_once_as_one_by_one(largest: int) -> None:
    # small nets: one compiled pass in int64; huge ones (squares past int64): exact integers
    rng = np.random.default_rng(largest % 97)
    sessions = 400
    deals = rng.integers(1, 12, sessions)
    nets = rng.integers(-largest, largest, (sessions, len(BOTS)))
    busted = rng.random((sessions, len(BOTS))) < 0.3
    left = rng.integers(0, 6, sessions)
    capped = rng.random(sessions) < 0.1
    showdowns = rng.integers(0, deals + 1)  # per session, how many deals came to each
    outcomes = np.zeros((sessions, len(OUTCOMES)), dtype=np.int64)
    outcomes[:, OUTCOMES.index("showdown")] = showdowns
    outcomes[:, OUTCOMES.index("uncontested")] = deals - showdowns
    together = Summary.empty(BOTS)
    together.add_arrays(deals, nets, busted, left, capped, pots={4: 2, 9: 1},
                        outcomes=outcomes)  # fmt: skip
    one_by_one = Summary.empty(BOTS)
    for s in range(sessions):
        first = s == 0
        one_by_one.add(SessionResult(
            int(deals[s]), tuple(int(x) for x in nets[s]), tuple(bool(b) for b in busted[s]),
            int(left[s]), bool(capped[s]), (4, 4, 9) if first else (),
            ("showdown",) * int(showdowns[s]) + ("uncontested",) * int(deals[s] - showdowns[s]),
        ))  # fmt: skip
    assert together == one_by_one
    assert (
        together.outcomes.units == sessions
        and together.outcomes.to_json() == one_by_one.outcomes.to_json()
    )
    assert together.kinds["threshold"].net.x == int(nets[:, [0, 2]].sum())
    assert together.kinds["threshold"].busts.total == int(busted[:, [0, 2]].sum())


def test_pots_are_counted_once_when_many_are_large() -> None:
    # every pot at least 4096 chips: the loop lists them, and calls again when the list
    # is full; no deal may be counted twice
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold,random", seed=3,
                        options={"ante": "5000", "continue-after-empty": "yes"}, max_deals=40,
                        fast=True)  # fmt: skip
    summary, lengths = fast_batch(spec, 0, 400)
    assert summary.pots.n == summary.deals == int(lengths.sum()) > 4096
    assert summary.outcomes.total == summary.deals
    assert min(summary.pots.counts) >= 4096
