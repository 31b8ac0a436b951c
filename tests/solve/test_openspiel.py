"""Cross-check against OpenSpiel: the same one-deal model as a pyspiel Python game
(tests/solve/spiel_deal.py) on a coarse abstraction of four equally likely hands, with
the continuation values of our fixed point. OpenSpiel's nash_conv of our strategy equals
ours, and OpenSpiel's own CFR+ finds the same values, within 1e-3 of the pot."""

from __future__ import annotations

import re

import numpy as np
import pytest

from guts.games.guts import preset
from guts.solve.cfr import Deal, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.model import model_of

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402
from open_spiel.python.algorithms.expected_game_score import policy_value  # noqa: E402

from tests.solve.spiel_deal import load  # noqa: E402

LEVELS = 4
_INFO = re.compile(r"p(\d+) hand (\d+) before (\d*)")


def _ours_as_policy(game: object, strategy: list[np.ndarray]) -> policy_lib.TabularPolicy:
    tabular = policy_lib.TabularPolicy(game)
    for info, row in tabular.state_lookup.items():
        found = _INFO.fullmatch(info)
        assert found is not None, info
        player, hand, before = int(found[1]), int(found[2]), found[3]
        history = sum(int(bit) << q for q, bit in enumerate(before))
        p_in = strategy[player][history][hand]
        tabular.action_probability_array[row] = [1.0 - p_in, p_in]
    return tabular


def _solved(game: str, players: int, levels: int) -> tuple[object, object]:
    model = model_of(preset(game), players)
    deal = Deal(model, HandClasses.uniform(levels), exact=False)
    ours = solve_deal(deal, 3000, tolerance=1e-6)
    return ours, load(model, levels, ours.continuation)


@pytest.mark.parametrize(
    ("game", "players"),
    [("two-card-guts", 2), ("two-card-guts", 3), ("simultaneous-guts", 3), ("ghost-guts", 3)],
)
def test_openspiel_nash_conv_of_our_strategy_is_ours(game: str, players: int) -> None:
    ours, spiel = _solved(game, players, LEVELS)
    measured = exploitability.nash_conv(spiel, _ours_as_policy(spiel, ours.strategy))
    assert measured == pytest.approx(ours.nash_conv, abs=1e-9)
    assert measured < 1e-3


@pytest.mark.parametrize(("players", "levels"), [(2, 4), (3, 3)])
def test_openspiel_cfr_finds_our_values(players: int, levels: int) -> None:
    ours, spiel = _solved("two-card-guts", players, levels)
    solver = cfr.CFRPlusSolver(spiel)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    theirs = solver.average_policy()
    assert exploitability.nash_conv(spiel, theirs) < 1e-3 * players
    values = policy_value(spiel.new_initial_state(), [theirs] * players)
    assert values == pytest.approx(ours.values, abs=1e-3)
