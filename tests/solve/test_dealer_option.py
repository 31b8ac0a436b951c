"""The dealer's option in the solver (``guts.solve.option``): a second chance to challenge
a dealer who alone stayed in.

Cross-checked against OpenSpiel (tests/solve/spiel_option.py, the same model as a pyspiel
game): its nash_conv of our strategy equals ours and its CFR+ finds our values; the game
with a second round nobody takes is the game without the option; the solver converges on
the real hands, with exact card removal heads-up.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from guts.cli import main
from guts.games.guts import preset
from guts.solve import Solution, solve_rules
from guts.solve.bot import EquilibriumPolicy, _information_set, advice
from guts.solve.cfr import Deal, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.model import Model, model_of
from guts.solve.option import DealerOptionDeal

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402
from open_spiel.python.algorithms.expected_game_score import policy_value  # noqa: E402

from tests.solve.spiel_option import load  # noqa: E402

_INFO = re.compile(r"p(\d+) hand (\d+) (before|second) (\d*)")


def model(players: int, **options: str) -> Model:
    """The model of two-card Guts (in turn) for ``players``; the option is the deal's."""
    return model_of(preset("two-card-guts", options), players)


def as_policy(game: object, strategy: list[np.ndarray]) -> policy_lib.TabularPolicy:
    tabular = policy_lib.TabularPolicy(game)
    for info, row in tabular.state_lookup.items():
        found = _INFO.fullmatch(info)
        assert found is not None, info
        player, hand, words = int(found[1]), int(found[2]), found[4]
        history = sum(int(bit) << q for q, bit in enumerate(words))
        if found[3] == "second":
            history += 1 << player
        p_in = strategy[player][history][hand]
        tabular.action_probability_array[row] = [1.0 - p_in, p_in]
    return tabular


@pytest.mark.parametrize(("players", "auto_in"), [(2, "no"), (3, "no"), (3, "yes")])
def test_openspiel_nash_conv_of_our_strategy_is_ours(players: int, auto_in: str) -> None:
    m = model(players, **{"last-in-when-all-out": auto_in})
    deal = DealerOptionDeal(m, HandClasses.uniform(4), exact=False)
    ours = solve_deal(deal, 3000, tolerance=1e-6)
    spiel = load(m, 4, ours.continuation)
    measured = exploitability.nash_conv(spiel, as_policy(spiel, ours.strategy))
    assert measured == pytest.approx(ours.nash_conv, abs=1e-9)
    assert measured < 1e-3
    # and a strategy far from equilibrium: the same exploitability, by both
    rough = deal.force([np.random.default_rng(players).random(s.shape) for s in ours.strategy])
    mine, best = deal.values(rough, deal.counterfactual(rough, ours.continuation))
    theirs = exploitability.nash_conv(spiel, as_policy(spiel, rough))
    assert theirs == pytest.approx(float((best - mine).sum()), abs=1e-9)
    assert theirs > 0.05


def test_openspiel_cfr_finds_our_values() -> None:
    m = model(2)
    deal = DealerOptionDeal(m, HandClasses.uniform(4), exact=False)
    ours = solve_deal(deal, 3000, tolerance=1e-6)
    spiel = load(m, 4, ours.continuation)
    solver = cfr.CFRPlusSolver(spiel)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    theirs = solver.average_policy()
    assert exploitability.nash_conv(spiel, theirs) < 2e-3
    values = policy_value(spiel.new_initial_state(), [theirs] * 2)
    assert values == pytest.approx(ours.values, abs=1e-3)


@pytest.mark.parametrize("players", [2, 3])
def test_a_second_round_nobody_takes_is_the_game_without_the_option(players: int) -> None:
    m = model(players)
    classes = HandClasses.of(preset("two-card-guts").hand_ranking)
    plain, option = Deal(m, classes), DealerOptionDeal(m, classes)
    rng = np.random.default_rng(7)
    first = plain.force([rng.random((plain.histories(p), len(classes.level)))
                         for p in range(players)])  # fmt: skip
    never = [np.concatenate([s, np.zeros_like(s)]) if p < players - 1 else s
             for p, s in enumerate(first)]  # fmt: skip
    v = np.full(players, 1.0 / players)
    expected = plain.values(first, plain.counterfactual(first, v))[0]
    assert option.values(never, option.counterfactual(never, v))[0] == pytest.approx(expected)
    # a second round always taken changes what the lone dealer wins
    always = [np.concatenate([s, np.ones_like(s)]) if p < players - 1 else s
              for p, s in enumerate(first)]  # fmt: skip
    changed = option.values(always, option.counterfactual(always, v))[0]
    assert np.abs(changed - expected).max() > 1e-3


def test_heads_up_the_option_is_solved_exactly_and_costs_the_dealer() -> None:
    m = model(2)
    classes = HandClasses.of(preset("two-card-guts").hand_ranking)
    option = solve_deal(DealerOptionDeal(m, classes), 2000, tolerance=1e-4)
    plain = solve_deal(Deal(m, classes), 2000, tolerance=1e-4)
    assert option.exploitability < 2e-4 and option.residual < 1e-3
    assert option.values.sum() == pytest.approx(1.0)  # the pot goes to someone, in time
    assert option.values[1] < plain.values[1]  # a lone dealer can be challenged
    # the dealer's left challenges with some hands it declined in the first round
    second = option.strategy[0][1]
    assert second.max() > 0.5 and option.strategy[0][0].min() < 0.5


def solved(players: int) -> Solution:
    return solve_rules(preset("two-card-guts", {"dealer-option": "yes"}), players, cache=False)


def test_guts_solve_gives_the_second_chance_by_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    try:
        main(["solve", "two-card-guts", "-n", "3", "-o", "dealer-option=yes", "--json"])
    except SystemExit as stop:
        assert stop.code in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data["exploitability"] < 5e-4 and sum(data["ev"]) == pytest.approx(1.0)
    rows = {(row["position"], row["before"]) for row in data["strategy"]}
    assert (0, "dealer alone in; again: -") in rows
    assert (1, "dealer alone in; again: in") in rows and (1, "out, in") not in rows
    assert not any(r[0] == 2 and r[1].startswith("dealer alone") for r in rows)
    assert len(rows) == 2 + 4 + 4  # first round 1, 2, 4 histories; second 1, 2


def test_the_bot_and_the_hint_read_the_second_chance_from_the_view() -> None:
    solution = solved(2)
    dealer_value = solution.result.values[1]
    # Bob (seat 1) is the dealer's left, Ann (seat 0) the dealer: Bob went out, Ann in
    view = {"dealt_in": [1, 0], "seat": 1, "hand": ["As", "Ah"],
            "declared": {"1": "out", "0": "in"}}  # fmt: skip
    found = _information_set(solution, view)
    assert found[:2] == (0, 1)  # the dealer's left, its second chance
    told = advice(solution, view)
    assert told.p_in > 0.98
    # aces against the lone dealer's range win the pot (the loser matches it, and Bob
    # deals the next pot: worth the dealer's value); out, the dealer takes the pot
    assert told.ev_in == pytest.approx(1.0 + dealer_value, abs=0.01)
    assert told.ev_out == pytest.approx(0.0, abs=1e-9)
    first = advice(solution, {**view, "declared": {}})
    assert _information_set(solution, {**view, "declared": {}})[:2] == (0, 0)
    assert first.ev_in != pytest.approx(told.ev_in)


def test_equilibrium_bots_play_sessions_with_the_dealers_option() -> None:
    from guts.catalog import find_game

    rules = preset("two-card-guts", {"dealer-option": "yes"})
    bot = EquilibriumPolicy(rules)
    rng = random.Random(3)
    challenges = 0
    for seed in range(8):
        session = find_game("two-card-guts").games_family.new_session(
            "two-card-guts", [("Ann", 40), ("Bob", 40), ("Cy", 40)],
            options={"dealer-option": "yes"}, rng=random.Random(seed),
        )  # fmt: skip
        while not session.is_over and session.deals_played < 30:
            if session.deal_over:
                session.start_deal()
                continue
            decision = session.pending()[0]
            challenges += "challenge" in decision.prompt
            session.act(decision.seat, bot.choose(session.view(decision.seat), decision, rng))
        assert sum(seat.stack for seat in session.table.seats) + sum(
            session.table.places.values()) == 120  # fmt: skip
    assert challenges > 0


def test_against_itself_each_seat_wins_what_the_model_says_in_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded engine sessions of equilibrium bots (the engine's own second chance): each
    seat's net per session is the model's value of its seat, within the 95% interval."""
    from guts.sim import SimSpec, report, simulate

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    options = {"dealer-option": "yes"}
    values = solve_rules(preset("two-card-guts", options), 2).result.values
    predicted = [float(values[1]) * 2 - 1, float(values[0]) * 2 - 1]  # seat 0 deals first
    spec = SimSpec.make("two-card-guts", players=2, bots="equilibrium", options=options,
                        seed=5, max_deals=200)  # fmt: skip
    data = report(spec, simulate(spec, sessions=1000), {"sessions": 1000})
    for seat, model_net in zip(data["seats"], predicted, strict=True):
        low, high = seat["net_per_session"]["ci95"]
        assert low <= model_net <= high
        assert high - low < 0.5  # chips: tight enough to mean something


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"last-in-when-all-out": "no"},
        {"payment": "single-loser", "ante-every-deal": "yes"},
        {"everyone-out": "henry", "last-in-when-all-out": "no"},
        {"everyone-out": "wimp", "last-in-when-all-out": "no", "ante-every-deal": "yes"},
    ],
)
def test_compiled_and_numpy_values_of_the_option_agree(
    options: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = preset("two-card-guts", {"dealer-option": "yes", **options})
    deal = DealerOptionDeal(model_of(rules, 4), HandClasses.of(rules.hand_ranking))
    assert deal._compiled_fits()
    rng = np.random.default_rng(3)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    values = rng.dirichlet(np.ones(4))
    compiled = deal.counterfactual(strategy, values)
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    plain = deal.counterfactual(strategy, values)
    for a, b in zip(compiled, plain, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)
