"""Pot cap and pot limit (guts.solve.chain): the chain of pots, the deal run once per
whole next pot summing to the plain deal, what the cap changes and what it cannot, the
bot reading the pot, the CLI, and seeded engine sessions of equilibrium bots winning what
the model says."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from guts.cards import parse_card
from guts.errors import GutsError
from guts.games.guts import new_session, preset
from guts.sim import SimSpec, report, simulate
from guts.solve import solve
from guts.solve.bot import advice
from guts.solve.cfr import Deal, solve_deal
from guts.solve.chain import ChainDeal, ChainSolution, next_multiples, pot_chain
from guts.solve.check import capped_values
from guts.solve.hands import HandClasses
from guts.solve.model import model_of
from guts.solve.removal import DeckDeal
from tests.cli_helpers import run

CAPPED = {"declare": "in-turn", "pot-cap": "6"}


@pytest.fixture(autouse=True)
def _cache(shared_solve_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests here only read solutions: the pot cap of six antes for three players in
    turn, which six of them play, is solved once per test process."""
    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))


def test_the_pots_a_session_reaches_below_the_cap() -> None:
    assert pot_chain(3, 50, [0, 1, 2]) == [48, 24, 12, 6, 3]
    assert pot_chain(4, 50, [0, 1, 2, 3]) == [48, 36, 32, 24, 16, 12, 8, 4]
    assert pot_chain(8, 8, [0, 1, 2]) == []  # the first pot is at the cap
    deal = Deal(model_of(preset("two-card-guts"), 4), HandClasses.uniform(3))
    assert next_multiples(deal) == [0, 1, 2, 3]  # nobody or one loser, up to three
    ghost = Deal(model_of(preset("two-card-guts", {"ghost": "always"}), 3), HandClasses.uniform(3))
    assert next_multiples(ghost) == [0, 1, 2, 3, 4]  # the ghost wins: the pot and three


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (3, {"ghost": "always", "declare": "simultaneous"}),
     (3, {"dealer-option": "yes"}), (4, {"winner-takes-all": "yes"})],
)  # fmt: skip
def test_one_deal_per_next_pot_sums_to_the_plain_deal(
    players: int, options: dict[str, str]
) -> None:
    """With every next pot of k pots worth k times the plain continuation, the chain's
    deal is the plain deal: counterfactual values are linear in the payoff tables."""
    model = model_of(preset("two-card-guts", options), players)
    classes = HandClasses.uniform(5)
    plain = Deal(model, classes, exact=players == 2)
    if model.dealer_option:
        from guts.solve.option import DealerOptionDeal

        plain = DealerOptionDeal(model, classes, exact=players == 2)
    values = np.random.default_rng(players).random(players)
    multiples = next_multiples(plain)
    chain = ChainDeal(model, classes, players == 2, {k: k * values for k in multiples},
                      dict.fromkeys(multiples, False))  # fmt: skip
    rng = np.random.default_rng(7)
    strategy = plain.force([rng.random((plain.histories(p), 5)) for p in range(players)])
    want = plain.counterfactual(strategy, values)
    found = chain.counterfactual(strategy, np.zeros(players))
    for p in range(players):
        assert np.allclose(found[p], want[p], atol=1e-12)
    assert chain.growth(strategy) == pytest.approx(plain.growth(strategy), abs=1e-12)


def test_far_below_a_high_cap_the_game_is_the_plain_one() -> None:
    plain = solve("two-card-guts", 3).result.values
    capped = solve("two-card-guts", 3, {"pot-cap": "96"})  # 32 antes: rarely reached
    assert isinstance(capped, ChainSolution)
    assert (capped.pot, len(capped.states)) == (3, 6)  # 3, 6, ... 48 and the cap
    assert np.allclose(capped.result.values, plain, atol=2e-3)


def test_at_the_cap_in_turn_the_values_change_but_not_at_once() -> None:
    """At the cap every position values a next pot alike (the chips aside are shared in
    the long run): in turn the positions' values move; at once, where the positions'
    values are already equal, the cap changes nothing."""
    plain = solve("two-card-guts", 3)
    capped = solve("two-card-guts", 3, CAPPED)
    assert isinstance(capped, ChainSolution)
    at_cap = capped.at_pot(50)
    assert (at_cap.pot, at_cap.state.capped) == (6, True)
    gap = np.abs(at_cap.result.values - plain.result.values).max()
    assert gap > 10 * (at_cap.result.exploitability + plain.result.exploitability)
    assert sum(at_cap.result.values) == pytest.approx(1.0)
    at_once = solve("simultaneous-guts", 3, {"pot-cap": "6"})
    assert isinstance(at_once, ChainSolution)
    rules = preset("simultaneous-guts")  # three hands from one pack, as the chain's
    plain_deal = DeckDeal(model_of(rules, 3), HandClasses.of(rules.hand_ranking))
    same = solve_deal(plain_deal, 2000, tolerance=5e-4, session=False).strategy
    for state in at_once.states:
        assert np.allclose(state.result.values, 1 / 3, atol=1e-3)
        assert max(np.abs(a - b).max() for a, b in zip(state.result.strategy, same,
                                                       strict=True)) < 0.02  # fmt: skip


def test_a_pot_limit_is_the_same_chain() -> None:
    cap = solve("two-card-guts", 3, CAPPED)
    limit = solve("two-card-guts", 3, {"declare": "in-turn", "pot-limit": "6"})
    assert isinstance(limit, ChainSolution) and isinstance(cap, ChainSolution)
    assert [s.pot for s in limit.states] == [s.pot for s in cap.states]
    assert np.allclose(limit.result.values, cap.result.values)


def test_the_bot_and_the_hint_read_the_pot() -> None:
    solution = solve("two-card-guts", 3, CAPPED)
    assert isinstance(solution, ChainSolution)
    session = new_session("two-card-guts", ["Ann", "Bob", "Cy"], buy_in=50, options=CAPPED)
    session.start_deal(session.stacked({1: "9s 8d", 2: "3c 2d", 0: "7h 2s"}))
    view = session.view(1)
    for pot in (3, 12):
        told = advice(solution, {**view, "pot": pot})
        there = solution.at_pot(pot)
        cls = there.classes.class_of([parse_card(c) for c in view["hand"]])
        assert told.p_in == pytest.approx(float(there.result.strategy[0][0][cls]))


def test_json_gives_every_pot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "two-card-guts", "-n", "3", "-o", "pot-cap=6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["pot"], data["pot_cap"]) == (3, 6)
    assert [(p["pot"], p["at_cap"]) for p in data["pots"]] == [(6, True), (3, False)]
    assert data["pots"][1]["ev"] == pytest.approx(data["ev"])
    assert sum(data["pots"][0]["ev_chips"]) == pytest.approx(6.0)
    code, out, err = run(capsys, "solve", "two-card-guts", "-n", "3", "-o", "pot-cap=6")
    assert code == 0 and "by pot" in out and "6+" in out


def test_rules_whose_next_pot_is_not_whole_are_refused() -> None:
    with pytest.raises(GutsError, match="whole number of pots"):
        solve("two-card-guts", 3, {"pot-cap": "6", "everyone-out": "chicken-fee"})
    with pytest.raises(GutsError, match="hi-lo with a pot cap"):
        solve("hi-lo-guts", 3, {"pot-cap": "6"})


def test_against_itself_each_seat_wins_what_the_model_says() -> None:
    """Three equilibrium bots in seeded engine sessions with a pot cap of six antes, in
    turn: each seat's net per session is within its 95% interval of the model's."""
    solution = solve("two-card-guts", 3, CAPPED)
    values = solution.result.values
    predicted = [float(values[(s - 1) % 3]) * 3 - 1 for s in range(3)]  # seat 0 deals first
    spec = SimSpec.make("two-card-guts", players=3, bots="equilibrium", options=CAPPED,
                        seed=5, max_deals=400)  # fmt: skip
    data = report(spec, simulate(spec, sessions=500), {"sessions": 500})
    assert data["stopped_at_max_deals"] == 0
    assert max(data["pots"]["max"], 0) >= 6  # the cap was reached
    for seat, model in zip(data["seats"], predicted, strict=True):
        low, high = seat["net_per_session"]["ci95"]
        assert low <= model <= high


@pytest.mark.parametrize(("players", "cap"), [(3, "6"), (4, "8")])
def test_the_aside_and_the_partial_refill_played_out_change_little(players: int, cap: str) -> None:
    """The solved strategies valued with the chips aside and the last, partial refill
    played as the engine plays them (every pot of one chip or more a state): the first
    pot's values are the model's within 1e-3 of the pot, and share out what is in play."""
    solution = solve("two-card-guts", players, {"declare": "in-turn", "pot-cap": cap})
    assert isinstance(solution, ChainSolution)
    exact = capped_values(solution)
    assert float(exact.sum()) == pytest.approx(1.0, abs=1e-9)
    assert np.abs(exact - solution.result.values).max() < 1e-3
    assert np.abs(exact - solution.result.values).max() > 0  # a different computation
