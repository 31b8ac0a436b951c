"""The sampled real deals (guts.solve.sampled): the compiled sums equal the numpy ones,
for every position and for one, with the halves the bracket needs; the lower estimate's
standard error is taken over the deals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from guts.cards import parse_cards
from guts.games.guts import preset
from guts.solve.hands import HandClasses
from guts.solve.model import model_of

pytest.importorskip("numba", reason="the compiled sums need numba (pip install 'guts[solve]')")

SIXTEEN = tuple(parse_cards("Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac"))


@pytest.mark.parametrize("game", ["two-card-guts", "simultaneous-guts", "ghost-guts"])
@pytest.mark.parametrize("only", [None, 2])
def test_the_compiled_sums_equal_the_numpy_ones(game: str, only: int | None) -> None:
    from guts.solve import sampled

    rules = preset(game)
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    deal = sampled.SampledDeal(model_of(rules, 5), classes, deals=400, seed=3)
    rng = np.random.default_rng(7)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    carry = rng.dirichlet(np.ones(5))
    half = rng.integers(0, 2, len(deal.sample))
    found = []
    for kernel in (sampled._compiled(), None):
        shape = (2, 5, 16, 2, len(deal.level))
        sums, counts = np.zeros(shape), np.zeros((2, 5, len(deal.level)))
        if kernel is None:
            sampled._accumulate_numpy(deal, strategy, carry, deal.sample, half, sums, only)
        else:
            sampled._accumulate(deal, strategy, carry, deal.sample, half, sums, counts, only)
        found.append(sums)
    assert found[0].any()
    np.testing.assert_allclose(found[0], found[1], atol=1e-12)


@pytest.mark.parametrize("kernels", ["compiled", "numpy"])
def test_the_lower_estimate_is_the_mean_of_what_each_deal_adds(
    kernels: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lower estimate's standard error comes from one number per deal: those numbers'
    mean is the lower estimate from the halves' sums (each half's best response, chosen
    on the other half, less the strategy), on either path."""
    from guts.solve import sampled

    if kernels == "numpy":
        monkeypatch.setenv("GUTS_KERNELS", "numpy")
    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    deal = sampled.SampledDeal(model_of(rules, 4), classes, deals=50, seed=3)
    rng = np.random.default_rng(8)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    carry = rng.dirichlet(np.ones(4))
    # runs of an odd length: the halves (even and odd deals) start either way in a run
    found = sampled.sampled_nash_conv(deal, strategy, carry, deals=3000, seed=4, chunk=699)
    # the halves' estimate, as _bracket took it before the per-deal sums
    shape = (2, 4, 8, 2, len(deal.level))
    sums, counts = np.zeros(shape), np.zeros((2, 4, len(deal.level)))
    pack = sampled._Lookup(deal)
    draw = np.random.default_rng(4)
    done = 0
    while done < 3000:
        take = min(700, 3000 - done)
        half = (np.arange(done, done + take) % 2).astype(np.int64)
        sampled._accumulate(deal, strategy, deal.continuation(carry), pack.deal(draw, take, 4),
                            half, sums, counts)  # fmt: skip
        done += take
    lower = 0.0
    for pick, judge in ((0, 1), (1, 0)):
        for p in range(4):
            rows = deal.histories(p)
            mean = [sums[h, p, :rows] / np.maximum(counts[h, p], 1.0) for h in (0, 1)]
            chosen = mean[pick][:, 1] > mean[pick][:, 0]
            valued = np.where(chosen, mean[judge][:, 1], mean[judge][:, 0])
            mine = strategy[p] * mean[judge][:, 1] + (1 - strategy[p]) * mean[judge][:, 0]
            free = np.ones(rows, dtype=bool)
            free[0] = not deal.forced(p, 0)
            lower += float(((valued - mine)[free] * counts[judge, p] / 1500).sum()) / 2
    assert found.lower == pytest.approx(lower, abs=1e-12)
    assert 0 < found.lower_error < 0.5 * abs(found.upper)
    with pytest.raises(ValueError, match="other deals"):
        sampled.sampled_nash_conv(deal, strategy, carry, deals=100, seed=3)


def test_the_chance_of_the_earlier_declarations_is_taken_on_the_deals() -> None:
    """The hint divides a value by the chance of the declarations before the seat; on a
    sampled deal both are sums over the deals where the seat held its class, so their
    ratio is the sampled game's expected value of the action there: the chance is the
    mean over those deals of the earlier positions' chances, per deal and chance of the
    class, and the values of a history divided by it add up to the position's value."""
    from guts.solve.sampled import SampledDeal

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    deal = SampledDeal(model_of(rules, 4), classes, deals=2000, seed=6)
    rng = np.random.default_rng(2)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    cls = int(deal.sample[0, 2])
    weights = [1.0 - strategy[0][0], strategy[1][0]]  # out, then in: history 0b10
    held = deal.sample[deal.sample[:, 2] == cls]
    mean = np.mean(weights[0][held[:, 0]] * weights[1][held[:, 1]])
    expected = mean * len(held) / (len(deal.sample) * deal.prior[cls])
    assert deal.history_chance(cls, weights) == pytest.approx(expected)
    # every history of position 2 together: the chances add up to the deals' share
    total = 0.0
    for history in range(4):
        w = [strategy[q][history & ((1 << q) - 1)] for q in range(2)]
        w = [x if history >> q & 1 else 1.0 - x for q, x in enumerate(w)]
        total += deal.history_chance(cls, w)
    assert total == pytest.approx(len(held) / (len(deal.sample) * deal.prior[cls]))


def test_every_position_at_once_is_now_plus_the_next_pot_times_the_continuation() -> None:
    """A sampled deal's values of every position come from one pass that keeps what is
    won now and the next pot apart: they equal the direct sums at any continuation, and
    each position's alone."""
    from guts.solve import sampled

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    deal = sampled.SampledDeal(model_of(rules, 4), classes, deals=500, seed=3)
    rng = np.random.default_rng(4)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    for _ in range(3):
        values = rng.dirichlet(np.ones(4))
        together = deal.counterfactual(strategy, values)
        for p in range(4):
            alone = deal.counterfactual(strategy, values, p)[p]
            np.testing.assert_allclose(together[p], alone, atol=1e-12)
    strategy[1][0] = 1 - strategy[1][0]  # another strategy: not the kept pass
    found = deal.counterfactual(strategy, values)
    np.testing.assert_allclose(found[1], deal.counterfactual(strategy, values, 1)[1], atol=1e-12)


def test_four_players_in_turn_solve_on_sampled_deals_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """Beyond three players, in turn, the default solve is on sampled real deals (hands
    drawn independently miss the real game by about 4e-3 of the pot); at once, four
    players stay on independent hands (within the aim in the real game) and five sample;
    --deals 0 asks for independent hands."""
    from guts.solve import solve

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    solving = solve.__globals__  # the module solve() reads (doctests may import another)
    monkeypatch.setitem(solving["SAMPLED_DEALS"], 4, 3000)  # a small sample: the same path
    found = solve("two-card-guts", 4, iterations=3, cache=False)
    assert found.deals == 3000  # type: ignore[union-attr]
    assert found.to_json()["card_removal"] == "sampled (3000 deals)"  # type: ignore[union-attr]
    assert solve("two-card-guts", 4, iterations=3, cache=False, deals=0).deals == 0  # type: ignore[union-attr]
    assert solve("simultaneous-guts", 4, iterations=3, cache=False).deals == 0  # type: ignore[union-attr]
    monkeypatch.setitem(solving["SAMPLED_AT_ONCE"], 5, 2000)
    assert solve("simultaneous-guts", 5, iterations=3, cache=False).deals == 2000  # type: ignore[union-attr]


def test_the_bot_and_the_hint_play_the_sampled_solve_for_four(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """Four seats, in turn, where a table may wait for the sampled solve: the equilibrium
    bot's solution is the sampled one, and the hint's EVs are the sampled game's values
    divided by the chance of the earlier declarations on the same deals (given the seat's
    hand), not by a product of priors. By default (``TABLE_DEALS`` 0) the bot plays on
    independent hands, solved in seconds."""
    from guts.games.guts import new_session
    from guts.solve.bot import EquilibriumPolicy, advice, solve_for_play
    from guts.solve.sampled import SampledDeal

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    module = solve_for_play.__globals__  # the module the bot reads (doctests may import another)
    monkeypatch.setitem(module["SAMPLED_DEALS"], 4, 20_000)
    session = new_session("two-card-guts", ["A", "B", "C", "D"], buy_in=30)
    assert EquilibriumPolicy(session.rules).solution(4).deals == 0  # type: ignore[union-attr]
    monkeypatch.setitem(module, "TABLE_DEALS", 20_000)
    solution = EquilibriumPolicy(session.rules).solution(4)
    assert isinstance(solution.deal, SampledDeal) and solution.deals == 20_000  # type: ignore[union-attr]
    session.start_deal(session.stacked({1: "Ah Kd", 2: "9s 8d", 3: "Qs Qd", 0: "7h 2s"}))
    session.act(1, "out")
    session.act(2, "in")
    told = advice(solution, session.view(3))
    deal = solution.deal  # type: ignore[union-attr]
    cls = solution.classes.class_of(parse_cards("Qs Qd"))  # type: ignore[union-attr]
    strategy = solution.result.strategy
    weights = [1.0 - strategy[0][0], strategy[1][0]]  # out, then in: history 0b10
    reach = deal.history_chance(cls, weights)
    assert reach != pytest.approx(float((weights[0] @ deal.prior) * (weights[1] @ deal.prior)))
    cv = solution.counterfactual[2]  # type: ignore[union-attr]
    assert told.ev_in == pytest.approx(cv[2, 1, cls] / reach)  # type: ignore[union-attr]
    assert told.ev_out == pytest.approx(cv[2, 0, cls] / reach)  # type: ignore[union-attr]


def test_the_whole_session_in_the_real_game_is_bracketed_by_sampled_deals() -> None:
    """Three players on a sixteen-card pack, where card removal is summed exactly: the
    whole-session exploitability of the independent-hands equilibrium in the real game
    (a stationary best response on the exact deal) lies between the sampled lower and
    upper estimates, up to their noise."""
    from guts.solve.sampled import sampled_session

    independent, strategy, exact = _sixteen_card_session()
    real = float(exact.sum()) / 3
    found = sampled_session(independent, strategy, deals=200_000, seed=5)
    assert found is not None
    lower, upper = found.per_player
    assert real > 1e-3  # removal matters on a small pack
    assert lower - 1e-3 < real < upper + 1e-3
    assert lower <= upper
    assert 0 < found.lower_error / 3 < 1e-3


def test_the_whole_session_lower_estimate_s_error_is_its_spread_over_seeds() -> None:
    """The standard error sampled_session gives its lower estimate (from the batches of
    the valuing half) is the spread of that estimate over independent samples, within
    the precision eight seeds allow (a factor of two either way); and the estimates lie
    within a few errors of the exact whole-session figure."""
    from guts.solve.sampled import sampled_session

    independent, strategy, exact = _sixteen_card_session()
    found = [sampled_session(independent, strategy, deals=20_000, seed=10 + s) for s in range(8)]
    lowers = np.array([f.lower for f in found if f is not None])
    errors = np.array([f.lower_error for f in found if f is not None])
    assert len(lowers) == 8
    spread = float(np.std(lowers, ddof=1))
    assert 0.5 < spread / float(np.mean(errors)) < 2.0
    assert abs(float(np.mean(lowers)) - float(exact.sum())) < 4 * spread


def test_a_large_sample_is_drawn_in_runs_from_one_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More deals than are shuffled at once: the first run is the sample a smaller solve
    draws (the same seed), the rest follow from the same generator."""
    from guts.solve import sampled

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    small = sampled.SampledDeal(model_of(rules, 4), classes, deals=1000, seed=3)
    monkeypatch.setattr(sampled, "DRAWN_AT_ONCE", 1000)
    large = sampled.SampledDeal(model_of(rules, 4), classes, deals=2500, seed=3)
    assert large.sample.shape == (2500, 4)
    np.testing.assert_array_equal(large.sample[:1000], small.sample)
    assert not np.array_equal(large.sample[1000:2000], small.sample)
    assert large.held.sum() == 4 * 2500


def _mostly_pure(deal: Any, seed: int) -> list[Any]:
    """A strategy for ``deal`` whose chances are mostly exactly 0 or 1 (as CFR's current
    strategies are once most hands are settled), the rest mixed."""
    rng = np.random.default_rng(seed)
    strategy = []
    for s in deal.uniform():
        pick = rng.integers(0, 3, s.shape)
        strategy.append(np.where(pick == 2, rng.random(s.shape), pick.astype(np.float64)))
    return list(deal.force(strategy))


@pytest.mark.parametrize(("only", "apart"), [(None, False), (0, False), (3, False), (None, True)])
def test_the_pruned_walk_gives_the_full_walk_s_sums_to_the_bit(
    only: int | None, apart: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled sums skip the leaves whose values are all zero (a pure declaration's
    other action): on a mostly pure strategy they are the full walk's bit for bit, for
    every position at once, for one, and with what is won now and the next pot apart,
    and the numpy path's (every leaf, summed in another order) to rounding."""
    from guts.solve import sampled

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    deal = sampled.SampledDeal(model_of(rules, 5), classes, deals=600, seed=3)
    strategy = _mostly_pure(deal, 5)
    carry = np.random.default_rng(6).dirichlet(np.ones(5))
    part = (np.arange(len(deal.sample)) % 4).astype(np.int64)
    shape = (4, 2, 5, 16, 2, len(deal.level)) if apart else (4, 5, 16, 2, len(deal.level))
    found = []
    for pruned in (True, False):
        monkeypatch.setattr(sampled, "PRUNED", pruned)
        sums = np.zeros(shape)
        if apart:
            sampled._accumulate_apart(deal, strategy, deal.sample, part, sums)
        else:
            sampled._accumulate(deal, strategy, carry, deal.sample, part, sums, None, only)
        found.append(sums)
    assert found[0].any()
    np.testing.assert_array_equal(found[0], found[1])
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    numpy = np.zeros(shape)
    if apart:
        sampled._accumulate_apart(deal, strategy, deal.sample, part, numpy)
    else:
        sampled._accumulate(deal, strategy, carry, deal.sample, part, numpy, None, only)
    np.testing.assert_allclose(found[0], numpy, atol=1e-12)


def test_a_sampled_solve_is_the_same_pruned_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five players on sampled deals of a sixteen-card pack, solved with the pruned sums
    and with the full walk: the same strategy, values and exploitability to the bit."""
    from guts.solve import sampled
    from guts.solve.cfr import solve_deal

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    found = []
    for pruned in (True, False):
        monkeypatch.setattr(sampled, "PRUNED", pruned)
        deal = sampled.SampledDeal(model_of(rules, 5), classes, deals=2000, seed=3)
        found.append(solve_deal(deal, 40))
    for p in range(5):
        np.testing.assert_array_equal(found[0].strategy[p], found[1].strategy[p])
    np.testing.assert_array_equal(found[0].values, found[1].values)
    assert found[0].nash_conv == found[1].nash_conv
    assert found[0].session_nash_conv == found[1].session_nash_conv


def test_the_whole_session_s_one_pass_equals_the_numpy_sums(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """sampled_session sums what is won now and the next pot apart in one compiled pass:
    its estimates are the numpy path's (the values at next pots worth 0 and 1)."""
    from guts.solve.sampled import sampled_session

    independent, strategy, _ = _sixteen_card_session()
    compiled = sampled_session(independent, strategy, deals=6000, seed=5, chunk=1000)
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    numpy = sampled_session(independent, strategy, deals=6000, seed=5, chunk=1000)
    assert compiled is not None and numpy is not None
    assert compiled.lower == pytest.approx(numpy.lower, abs=1e-12)
    assert compiled.upper == pytest.approx(numpy.upper, abs=1e-12)
    assert compiled.lower_error == pytest.approx(numpy.lower_error, abs=1e-12)


def _sixteen_card_session() -> tuple[Any, Any, Any]:
    """Three players' independent-hands equilibrium on a 16-card pack: the deal, its
    strategy and the exact whole-session gains in the real game."""
    from guts.solve.cfr import Deal, solve_deal
    from guts.solve.removal import DeckDeal
    from guts.solve.session import session_gains

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking, cards=SIXTEEN)
    model = model_of(rules, 3)
    independent = Deal(model, classes, exact=False)
    strategy = solve_deal(independent, 300, tolerance=1e-6).strategy
    exact = session_gains(DeckDeal(model, classes), strategy)
    assert exact is not None
    return independent, strategy, exact
