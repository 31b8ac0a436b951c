"""The solver's model: hand classes, payoffs that conserve chips, and the closed-form
two-player continuous game (docs/solve.md) solved by the same machinery."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from guts.errors import GutsError
from guts.games.guts import preset
from guts.games.guts.rules import Ghost, GhostTie
from guts.solve.cfr import Deal, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.model import OUTCOMES, model_of

PSI = 1.4655712318767680  # the real root of x**3 = x**2 + 1


def test_two_card_classes_are_rank_pairs() -> None:
    classes = HandClasses.of(preset("two-card-guts").hand_ranking)
    assert (len(classes.count), int(classes.count.sum()), classes.grouping) == (91, 1326, "ranks")
    assert sorted(set(classes.count.tolist())) == [6, 16]  # a pair, two unpaired ranks
    assert classes.words[0] == "three-two high" and classes.words[-1] == "pair of aces"
    assert (np.diff(classes.strength) > 0).all()  # one strength per class, weakest first
    assert classes.meeting.sum(axis=1).tolist() == [1225.0] * 91  # C(50, 2) hands left


def test_three_card_classes_keep_suits_that_make_flushes() -> None:
    classes = HandClasses.of(preset("three-card-guts").hand_ranking)
    assert (len(classes.count), int(classes.count.sum()), classes.grouping) == (
        1755,
        22100,
        "suits",
    )
    strength = classes.ranking.strength_batch(classes.hands)  # type: ignore[union-attr]
    for cls in (0, 400, 1754):
        assert len(set(strength[classes.of_hand == cls].tolist())) == 1
    assert (classes.meeting.sum(axis=1) == 18424).all()  # C(49, 3)


def test_flushes_in_two_card_split_suited_hands() -> None:
    classes = HandClasses.of(preset("two-card-guts", {"flushes": "yes"}).hand_ranking)
    assert (len(classes.count), classes.grouping) == (169, "suits")


@pytest.mark.parametrize(
    "name", ["two-card-guts", "ghost-guts", "winner-takes-all-guts", "simultaneous-guts"]
)
@pytest.mark.parametrize("players", [2, 5])
def test_every_payoff_conserves_the_pot(name: str, players: int) -> None:
    rules = replace(preset(name), dropouts_ante=True, ante_every_deal=True)
    for ghost_ties in GhostTie:
        model = model_of(replace(rules, ghost_ties=ghost_ties), players)
        for ins in range(players + 1):
            tops = range(1, ins + 1) if ins else [0]
            for top, outcome in itertools.product(tops, OUTCOMES):
                pay = model.payoff(ins, top, outcome)
                total = pay.top * top + pay.loser * (ins - top) + pay.out * (players - ins)
                assert total + pay.next == pytest.approx(1.0)


def test_out_of_reach_rules_say_why() -> None:
    with pytest.raises(GutsError, match="hi-lo"):
        model_of(preset("hi-lo-guts"), 3)
    with pytest.raises(GutsError, match="pot-cap and pot-limit are solved as a chain"):
        model_of(preset("capped-guts"), 3)
    with pytest.raises(GutsError, match="max-loss"):
        model_of(preset("two-card-guts", {"max-loss": "5"}), 3)
    with pytest.raises(GutsError, match="after the declaration"):
        model_of(preset("two-plus-one"), 3)


def test_continuous_in_turn_two_players_matches_the_closed_form() -> None:
    """Dealer's left stays with x >= 1 - 2/psi**2, the dealer calls with y >= 1 - 1/psi,
    and the dealer's left is worth psi - 1 of the pot (docs/solve.md)."""
    deal = Deal(model_of(preset("two-card-guts"), 2), HandClasses.uniform(200), exact=False)
    result = solve_deal(deal, 600)
    assert result.exploitability < 1e-5
    assert result.values[0] == pytest.approx(PSI - 1, abs=1e-3)
    assert result.strategy[0][0].mean() == pytest.approx(2 / PSI**2, abs=3e-3)
    weakest_call = np.argmax(result.strategy[1][1] > 0.5) / 200
    assert weakest_call == pytest.approx(1 - 1 / PSI, abs=6e-3)


def test_continuous_simultaneous_two_players_stays_with_the_better_half() -> None:
    deal = Deal(model_of(preset("simultaneous-guts"), 2), HandClasses.uniform(100), exact=False)
    result = solve_deal(deal, 300)
    assert result.values == pytest.approx([0.5, 0.5], abs=1e-6)
    assert np.argmax(result.strategy[0][0] > 0.5) == pytest.approx(50, abs=1)


@pytest.mark.parametrize("name", ["two-card-guts", "simultaneous-guts", "ghost-guts"])
def test_solved_values_share_out_the_pot_and_resist_best_responses(name: str) -> None:
    rules = preset(name)
    result = solve_deal(Deal(model_of(rules, 3), HandClasses.of(rules.hand_ranking)), 200)
    assert result.values.sum() == pytest.approx(1.0)
    assert 0 <= result.exploitability < 2e-3
    assert result.residual < 2e-3


def test_exact_card_removal_for_two_players_is_close_to_independent_hands() -> None:
    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking)
    model = model_of(rules, 2)
    exact = solve_deal(Deal(model, classes), 300)
    loose = solve_deal(Deal(model, classes, exact=False), 300)
    assert exact.exploitability < 1e-4 and loose.exploitability < 1e-4
    assert exact.values != pytest.approx(loose.values, abs=1e-4)  # removal matters a little
    assert exact.values == pytest.approx(loose.values, abs=2e-2)


def test_ghost_makes_the_weakest_hands_fold() -> None:
    base = preset("simultaneous-guts")
    plain = solve_deal(Deal(model_of(base, 3), HandClasses.of(base.hand_ranking)), 200)
    ghost = replace(base, ghost=Ghost.ALWAYS)
    haunted = solve_deal(Deal(model_of(ghost, 3), HandClasses.of(ghost.hand_ranking)), 200)
    assert haunted.strategy[0][0].sum() < plain.strategy[0][0].sum()


@pytest.mark.parametrize(
    "name", ["two-card-guts", "ghost-guts", "winner-takes-all-guts", "single-loser-guts"]
)
def test_compiled_and_numpy_counterfactual_values_agree(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = preset(name)
    deal = Deal(model_of(rules, 4), HandClasses.of(rules.hand_ranking))
    rng = np.random.default_rng(7)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    values = rng.dirichlet(np.ones(4))
    compiled = deal.counterfactual(strategy, values)
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    plain = deal.counterfactual(strategy, values)
    for a, b in zip(compiled, plain, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_each_position_moves_one_to_the_right_as_the_deal_passes_left() -> None:
    """Position p (from the dealer's left) of one deal is position p - 1 of the next,
    the dealer's left deals next: so p's next pot is worth v[p - 1]."""
    from guts.games.guts import new_session

    session = new_session("simultaneous-guts", ["A", "B", "C", "D"], buy_in=20)
    session.start_deal()
    first = list(session.deal.seats)
    for seat in first:
        session.act(seat, "out")  # everyone out: the pot stays, the deal passes
    session.start_deal()
    second = list(session.deal.seats)
    assert [second.index(seat) for seat in first] == [3, 0, 1, 2]
    deal = Deal(model_of(preset("simultaneous-guts"), 4), HandClasses.uniform(3), exact=False)
    values = np.array([10.0, 11.0, 12.0, 13.0])
    assert deal.continuation(values).tolist() == [values[3], values[0], values[1], values[2]]


@pytest.mark.parametrize("name", ["winner-takes-all-guts", "two-card-guts"])
def test_continuation_values_are_the_fixed_point(name: str) -> None:
    rules = preset(name)
    deal = Deal(model_of(rules, 4), HandClasses.of(rules.hand_ranking))
    result = solve_deal(deal, 150)
    again = deal.values(result.strategy, deal.counterfactual(result.strategy, result.values))[0]
    assert again == pytest.approx(result.values, abs=1e-9)
    if not deal.model.in_turn:
        assert result.values == pytest.approx([0.25] * 4, abs=1e-4)  # nobody is first


def test_no_peek_has_one_strategy_for_every_hand() -> None:
    """Declaring before looking: in dominates heads-up (out loses the pot to an in, in
    wins or loses it at even chances and keeps a share of the next pot)."""
    rules = preset("no-peek-guts")
    for players in (2, 3):
        deal = Deal(model_of(rules, players), HandClasses.of(rules.hand_ranking))
        result = solve_deal(deal, 100)
        assert result.exploitability < 1e-3
        for s in result.strategy:
            assert np.ptp(s, axis=1).max() < 1e-12  # the same for every class
        assert result.values == pytest.approx([1 / players] * players, abs=1e-3)
    assert result.strategy[0][0][0] > 0.99
