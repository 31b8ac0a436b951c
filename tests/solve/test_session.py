"""Whole-session exploitability (guts.solve.session): the value iteration's stationary
best response against every pure stationary deviation, valued exactly on the recursive
game, and the solver driving it below its tolerance."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from guts.games.guts import preset
from guts.solve.cfr import Deal
from guts.solve.hands import HandClasses
from guts.solve.model import model_of
from guts.solve.session import session_gains
from tests.cli_helpers import run


def _best_stationary(deal: Deal, strategy: list[np.ndarray]) -> np.ndarray:
    """Per position, the most a deviator wins over the session with any pure stationary
    strategy of its own (one choice per information set of every position), each valued
    by the linear recursion V[p] = a[p] + m[p] V[p - 1] (``a`` what it wins in this deal
    in position p, ``m`` the expected next pot there), its best everywhere at once."""
    n = deal.players
    sets = [(p, h) for p in range(n) for h in range(deal.histories(p)) if not deal.forced(p, h)]
    size = len(deal.level)
    best = np.full(n, -np.inf)
    shift = np.roll(np.eye(n), -1, axis=1)  # (S V)[p] = V[p - 1]
    for bits in itertools.product((0.0, 1.0), repeat=len(sets) * size):
        a, m = np.zeros(n), np.zeros(n)
        for p in range(n):
            mine = [s.copy() for s in strategy]
            for k, (q, h) in enumerate(sets):
                if q == p:
                    mine[p][h] = bits[k * size : (k + 1) * size]
            zero = deal.values(mine, deal.counterfactual(mine, np.zeros(n)))[0][p]
            one = deal.values(mine, deal.counterfactual(mine, np.ones(n)))[0][p]
            a[p], m[p] = zero, one - zero
        value = np.linalg.solve(np.eye(n) - np.diag(m) @ shift, a)
        best = np.maximum(best, value)
    return best


@pytest.mark.parametrize("game", ["two-card-guts", "simultaneous-guts"])
def test_the_value_iteration_finds_the_best_stationary_deviation(game: str) -> None:
    deal = Deal(model_of(preset(game), 2), HandClasses.uniform(3), exact=False)
    rng = np.random.default_rng(3)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    gains = session_gains(deal, strategy)
    assert gains is not None
    own = deal.fixed_point(strategy)
    np.testing.assert_allclose(own + gains, _best_stationary(deal, strategy), atol=1e-9)
    # holding the next pots at their equilibrium value, one deal, is a weaker deviation
    mine, one_deal = deal.values(strategy, deal.counterfactual(strategy, own))
    assert np.all(gains >= one_deal - mine - 1e-12) and gains.sum() > 0


def test_the_solver_meets_its_tolerance_over_the_whole_session(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    code, out, err = run(capsys, "solve", "two-card-guts", "-n", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["converged"]
    assert 0 <= data["exploitability"] <= data["session_exploitability"] <= data["tolerance"]
    code, out, _ = run(capsys, "solve", "two-card-guts", "-n", "2")
    assert "over the whole session" in " ".join(out.split())
