"""The fast path's dealing: a partial Fisher-Yates shuffle of only the cards dealt, from
each session's own stream; uniform, and exactly what the loop plays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from guts.games.guts.presets import preset
from guts.sim.kernel import deal_sessions
from guts.sim.vector import Trace, fast_game, run_fast, run_key

pytest.importorskip("numba")


def _uniform(stats: Any, counts: np.ndarray) -> float:
    """The chi-squared p-value of ``counts`` against equal chances for every cell."""
    return float(stats.chisquare(counts.ravel()).pvalue)


@pytest.mark.parametrize("needed", [8, 15])
def test_every_deal_is_a_uniform_draw_of_distinct_cards_in_order(needed: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    sessions, deals = 2000, 50
    cards = deal_sessions(run_key(3), 0, sessions, deals, needed)
    assert cards.shape == (sessions, deals, needed)
    hands = cards.reshape(-1, needed)
    assert hands.min() == 0 and hands.max() == 51
    assert all(len(set(row)) == needed for row in hands.tolist())
    for position in range(needed):  # each place gets each card equally often
        counts = np.bincount(hands[:, position], minlength=52)
        assert _uniform(stats, counts) > 0.001, position
    # pairs within a word and across words (the fourth and fifth cards), never equal
    for a, b in ((0, 1), (3, 4), (needed - 2, needed - 1)):
        counts = np.bincount(hands[:, a] * 52 + hands[:, b], minlength=52 * 52)
        assert not counts[np.arange(52) * 53].any()
        assert _uniform(stats, np.delete(counts, np.arange(52) * 53)) > 0.001, (a, b)
    # a deal does not depend on the one before it in the session (from the pack it left)
    first, after = cards[:, :-1, 0].ravel(), cards[:, 1:, 0].ravel()
    assert _uniform(stats, np.bincount(first * 52 + after, minlength=52 * 52)) > 0.001


def test_sessions_deal_by_their_number_alone() -> None:
    key = run_key(8)
    whole = deal_sessions(key, 0, 30, 5, 8)
    assert np.array_equal(deal_sessions(key, 12, 18, 5, 8), whole[12:])
    assert not np.array_equal(deal_sessions(run_key(9), 0, 30, 5, 8), whole)


@pytest.mark.parametrize(
    ("preset_name", "options"),
    [
        ("two-card-guts", {"continue-after-empty": "yes"}),
        ("ghost-guts", {"continue-after-empty": "yes", "cards": "3"}),
    ],
)
def test_the_loop_plays_the_deals_it_deals(preset_name: str, options: dict[str, str]) -> None:
    # threshold bots on credit draw nothing else from the streams: the loop's own deals
    # are deal_sessions', which the engine agrees with deal by deal (test_sim_vector)
    game = fast_game(preset(preset_name, options), 4)
    sessions, limit = 200, 30
    own = run_fast(game, ["threshold"], seed=6, first=0, count=sessions, buy_in=50,
                   max_deals=limit, trace=True)  # fmt: skip
    decks = deal_sessions(run_key(6), 0, sessions, limit, game.cards_per_deal)
    dealt = run_fast(game, ["threshold"], seed=0, first=0, count=sessions, buy_in=50,
                     max_deals=limit, decks=decks, trace=True)  # fmt: skip
    assert isinstance(own, Trace) and isinstance(dealt, Trace)
    assert int(own.played.deals.sum()) > sessions
    assert np.array_equal(own.played.deals, dealt.played.deals)
    assert np.array_equal(own.played.nets, dealt.played.nets)
    for ours, theirs in ((own.pots, dealt.pots), (own.outcomes, dealt.outcomes),
                         (own.stacks, dealt.stacks)):  # fmt: skip
        assert np.array_equal(ours, theirs)
