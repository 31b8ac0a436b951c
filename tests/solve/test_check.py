"""The model's values against real deals from one pack (guts.solve.check)."""

from __future__ import annotations

import numpy as np
import pytest

from guts.solve import solve
from guts.solve.check import dealt_values


@pytest.fixture(autouse=True)
def _cache(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))


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
