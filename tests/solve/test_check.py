"""The model's values against real deals from one pack (guts.solve.check)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from guts.solve import solve
from guts.solve.check import dealt_values


@pytest.fixture(autouse=True)
def _cache(shared_solve_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))


def test_two_players_with_exact_removal_match_real_deals() -> None:
    solution = solve("two-card-guts", 2)
    dealt = dealt_values(solution, deals=40_000, seed=3)
    assert dealt.values.sum() == pytest.approx(1.0)
    assert np.all(np.abs(dealt.values - dealt.model) < 4 * dealt.errors)


@pytest.mark.parametrize("game", ["ghost-guts", "winner-takes-all-guts"])
def test_independent_hands_are_close_to_real_deals(game: str) -> None:
    dealt = dealt_values(solve(game, 3), deals=30_000, seed=5)
    assert dealt.values.sum() == pytest.approx(1.0)
    assert dealt.gap < 4 * dealt.errors.max() + 0.01


@pytest.mark.parametrize("rule", ["henry", "wimp"])
def test_the_best_hands_paying_when_nobody_is_in_match_real_deals(rule: str) -> None:
    """Heads-up at once, the best hand matches the pot (Henry) or antes for both (wimp)
    when nobody is in: the exact model's values of lopsided strategies (one player
    rarely in, the other often) against real deals."""
    solution = solve("simultaneous-guts", 2, {"everyone-out": rule})
    deal, result = solution.deal, solution.result
    rng = np.random.default_rng(2)
    lopsided = [rng.random(s.shape) * scale for s, scale in zip(result.strategy, (0.3, 1.0),
                                                                strict=True)]  # fmt: skip
    values = deal.values(lopsided, deal.counterfactual(lopsided, result.continuation))[0]
    changed = replace(solution, result=replace(result, strategy=lopsided, values=values))
    dealt = dealt_values(changed, deals=40_000, seed=7)
    assert abs(values[0] - values[1]) > 0.05  # the test means something
    assert np.all(np.abs(dealt.values - dealt.model) < 4 * dealt.errors)
    plain = solve("simultaneous-guts", 2)
    stay = solution.result.strategy[0][0] @ deal.prior
    assert stay > plain.result.strategy[0][0] @ deal.prior + 0.01  # out costs more now
