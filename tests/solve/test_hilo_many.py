"""Hi-Lo Guts for three or more players (guts.solve.hilo_many): the counterfactual values
against brute force over every deal of a small abstraction and every combination of
declarations, settled by hilo.settle (itself checked against the engine in
test_hilo.py); the best response against every pure strategy; the solved deal; the model
against real deals; the CLI, the bot and the hint; engine sessions of equilibrium bots
winning what the model says."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path
from random import Random

import numpy as np
import pytest

from guts.games.guts import new_session, preset
from guts.prompts import hint_lines
from guts.sim import SimSpec, report, simulate
from guts.solve import solve
from guts.solve.bot import EquilibriumPolicy, advice
from guts.solve.check import hi_lo_dealt_values
from guts.solve.hands import HandClasses
from guts.solve.hilo import HiLoModel, hi_lo_model, settle, solve_hi_lo
from guts.solve.hilo_many import HiLoManyDeal
from guts.solve.hilo_solution import HiLoAdvice, HiLoSolution, hi_lo_deal
from tests.cli_helpers import run

WAYS = ("high", "low", "both", "out")
IN_TURN = {"declare": "in-turn"}


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    return tmp_path / "solve"


def _classes(levels: list[int]) -> HandClasses:
    """Equally likely hand classes of these strength levels (equal levels tie)."""
    plain = HandClasses.uniform(len(levels))
    return replace(plain, level=np.array(levels, dtype=np.int64))


def _brute(deal: HiLoManyDeal, strategy: list[np.ndarray], values: np.ndarray) -> list:
    """Counterfactual values summed over every deal of classes and every leaf."""
    n, prior, carry = deal.players, deal.prior, np.roll(values, 1)
    cv = [np.zeros_like(s) for s in strategy]
    for hands in itertools.product(range(len(prior)), repeat=n):
        levels = [np.array(float(deal.level[h])) for h in hands]
        for leaf in itertools.product(range(deal.ways), repeat=n):
            rows = [deal.history(j, leaf) for j in range(n)]
            pays = settle(deal.model, tuple(deal.model.ways[a] for a in leaf), levels)
            chance = [prior[hands[j]] * strategy[j][rows[j], leaf[j], hands[j]] for j in range(n)]
            for p in range(n):
                others = float(np.prod([c for j, c in enumerate(chance) if j != p]))
                cv[p][rows[p], leaf[p], hands[p]] += others * (pays[p] + carry[p] * pays[n])
    return cv


def _random_strategy(deal: HiLoManyDeal, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    size = len(deal.prior)
    return [
        rng.dirichlet(np.ones(deal.ways), size=(deal.histories(p), size)).transpose(0, 2, 1)
        for p in range(deal.players)
    ]


@pytest.mark.parametrize(
    ("players", "in_turn", "ways", "fees", "levels"),
    [
        (3, False, WAYS, (0.0, 0.0), [0, 1, 1, 2, 3]),
        (3, True, WAYS, (1 / 3, 0.0), [0, 1, 1, 2, 3]),
        (3, True, ("high", "low", "out"), (0.0, 1 / 3), [0, 1, 2, 2]),
        (4, False, WAYS, (0.25, 0.25), [0, 1, 1]),
        (4, True, WAYS, (0.0, 0.0), [0, 0, 1]),
    ],
)
def test_counterfactual_values_are_the_brute_force_sums(
    players: int, in_turn: bool, ways: tuple[str, ...], fees: tuple[float, float],
    levels: list[int],
) -> None:  # fmt: skip
    deal = HiLoManyDeal(HiLoModel(players, in_turn, ways, *fees), _classes(levels))
    strategy = _random_strategy(deal, players + len(levels))
    values = np.random.default_rng(1).random(players)
    found, want = deal.counterfactual(strategy, values), _brute(deal, strategy, values)
    for p in range(players):
        assert np.allclose(found[p], want[p], atol=1e-12), p
        only = deal.counterfactual(strategy, values, only=p)[p]
        assert np.allclose(only, want[p], atol=1e-12)


def test_the_best_response_is_the_best_pure_strategy() -> None:
    """Every pure strategy of the dealer's left, at once on three hands, valued by brute
    force: the best of them is worth what Deal.values says a best response is."""
    deal = HiLoManyDeal(HiLoModel(3, False, WAYS, 0.0, 0.0), _classes([0, 1, 2]))
    strategy = _random_strategy(deal, 5)
    values = np.array([0.3, 0.3, 0.4])
    mine, best = deal.values(strategy, deal.counterfactual(strategy, values))
    brute = _brute(deal, strategy, values)[0]
    pure = []
    for choice in itertools.product(range(deal.ways), repeat=len(deal.prior)):
        pure.append(sum(deal.prior[h] * brute[0, a, h] for h, a in enumerate(choice)))
    assert max(pure) == pytest.approx(best[0], abs=1e-12)
    assert best[0] > mine[0]


@pytest.mark.parametrize("options", [{}, IN_TURN, {"hi-lo-both": "no"}])
def test_three_players_solve_near_an_equilibrium(options: dict[str, str]) -> None:
    rules = preset("hi-lo-guts", options)
    deal = hi_lo_deal(hi_lo_model(rules, 3), HandClasses.of(rules.hand_ranking))
    result = solve_hi_lo(deal, 400, tolerance=5e-4)
    assert result.exploitability <= 5e-4 and result.residual <= 5e-4
    assert float(result.values.sum()) == pytest.approx(1.0, abs=1e-3)
    if not options:  # at once, the seats differ only by the next pot's button
        assert np.allclose(result.values, 1 / 3, atol=2e-3)


def test_the_model_is_close_to_real_deals() -> None:
    """Hands independent against hands dealt from one pack: within 0.01 of the pot
    (the measured gap is recorded in docs/solve.md)."""
    dealt = hi_lo_dealt_values(solve("hi-lo-guts", 3, IN_TURN), deals=30_000, seed=5)
    assert dealt.values.sum() == pytest.approx(1.0)
    assert dealt.gap < 4 * dealt.errors.max() + 0.01


def test_json_names_every_history_of_three_players(
    capsys: pytest.CaptureFixture[str], cache: Path
) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "-n", "3", "-o", "declare=in-turn",
                         "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert (data["players"], data["card_removal"]) == (3, "independent hands")
    assert 0 <= data["exploitability"] < 5e-4 and sum(data["ev"]) == pytest.approx(1.0)
    befores = [(s["position"], s["before"]) for s in data["strategy"]]
    assert len(befores) == 1 + 4 + 16
    assert befores[:3] == [(0, "-"), (1, "high"), (1, "low")]
    assert (2, "low, high") in befores  # the dealer's left low, then the next high
    reached = {(s["position"], s["before"]): s["reached"] for s in data["strategy"]}
    assert reached[(1, "high")] + reached[(1, "low")] + reached[(1, "both")] + reached[
        (1, "out")
    ] == pytest.approx(1.0, abs=1e-5)
    assert list(cache.glob("*.npz"))


def test_the_table_lists_three_positions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "-n", "3")
    assert code == 0, err
    assert "3 players" in out and "2nd from the dealer's left" in out
    assert "hands independent" in out


def test_the_bot_and_the_hint_read_three_seats() -> None:
    rules = preset("hi-lo-guts", IN_TURN)
    bot = EquilibriumPolicy(rules, 3)
    session = new_session("hi-lo-guts", ["Ann", "Bob", "Cy"], buy_in=50, options=IN_TURN)
    session.start_deal(session.stacked({1: "As Ah", 2: "3c 2d", 0: "9h 8s"}))
    (first,) = session.pending()  # Bob, the dealer's left, with a pair of aces
    assert {bot.choose(session.view(1), first, Random(s)) for s in range(20)} <= {"high", "both"}
    session.act(1, "high")
    (second,) = session.pending()  # Cy, after a high, with the best low hand
    solution = bot.solution(3)
    assert isinstance(solution, HiLoSolution)
    told = advice(solution, session.view(2))
    assert isinstance(told, HiLoAdvice)
    assert told.chances["low"] > 0.95 and told.ev["low"] == max(told.ev.values())
    assert told.position == "2nd from the dealer's left"
    lines = hint_lines(second, session.view(2), session.rules)
    assert lines[0].startswith("Equilibrium: go low") and "three-two high" in lines[0]


def test_against_itself_each_seat_wins_what_the_model_says() -> None:
    """Three equilibrium bots in seeded engine sessions (real deals from one pack): each
    seat's net per session is within its 95% interval of the model's value."""
    values = solve("hi-lo-guts", 3, IN_TURN).result.values
    predicted = [float(values[(s - 1) % 3]) * 3 - 1 for s in range(3)]  # seat 0 deals first
    spec = SimSpec.make("hi-lo-guts", players=3, bots="equilibrium", options=IN_TURN, seed=4,
                        max_deals=200)  # fmt: skip
    data = report(spec, simulate(spec, sessions=600), {"sessions": 600})
    for seat, model in zip(data["seats"], predicted, strict=True):
        low, high = seat["net_per_session"]["ci95"]
        assert low <= model <= high
        assert high - low < 0.8


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, IN_TURN), (4, {"everyone-out": "chicken-fee", "dropouts-ante": "yes"}),
     (4, {"declare": "in-turn", "hi-lo-both": "no"}), (5, {})],
)  # fmt: skip
def test_compiled_and_numpy_values_agree(
    players: int, options: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    rules = preset("hi-lo-guts", options)
    deal = HiLoManyDeal(hi_lo_model(rules, players), HandClasses.of(rules.hand_ranking))
    strategy = _random_strategy(deal, players)
    values = np.random.default_rng(2).random(players)
    compiled = deal.counterfactual(strategy, values)
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    plain = deal.counterfactual(strategy, values)
    for p in range(players):
        assert np.allclose(compiled[p], plain[p], atol=1e-12)
        assert np.abs(plain[p]).max() > 0.01  # values worth comparing


def test_plot_draws_the_reached_declarations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "hilo3.png"
    code, _, err = run(capsys, "solve", "hi-lo-guts", "-n", "3", "-o", "declare=in-turn",
                       "--plot", str(path), "--json")  # fmt: skip
    assert code == 0, err
    assert path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_beats_two_threshold_bots() -> None:
    """In seat 0 of three, Hi-Lo in turn, the equilibrium bot wins more against two
    threshold bots than its seat is worth against itself, beyond the 95% interval (1,500
    seeded sessions; measured +0.61 [0.49, 0.73] against a value of +0.19)."""
    values = solve("hi-lo-guts", 3, IN_TURN).result.values
    predicted = float(values[2]) * 3 - 1  # seat 0 deals first: the dealer
    spec = SimSpec.make("hi-lo-guts", players=3, bots="equilibrium,threshold,threshold",
                        options=IN_TURN, seed=11, max_deals=400)  # fmt: skip
    data = report(spec, simulate(spec, sessions=1500), {"sessions": 1500})
    assert data["seats"][0]["net_per_session"]["ci95"][0] > predicted
