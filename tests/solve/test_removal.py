"""Exact card removal for three players (guts.solve.removal) against every deal of a
small pack: three hands dealt from 12 or 16 cards, each deal settled by the engine's own
showdown functions (through test_brute_force's settlement), the best response exhaustive."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from guts.cards import Card, parse_cards
from guts.games.guts import preset
from guts.games.guts.rules import EveryoneOut, Ghost, GutsRules
from guts.solve.cfr import solve_deal
from guts.solve.hands import HandClasses
from guts.solve.model import model_of
from guts.solve.removal import DeckDeal, joint_of, mask_joint, rank_joint
from tests.solve.test_brute_force import _settle

TWELVE = tuple(parse_cards("9s 9h Ts Th Js Jh Qs Qh Ks Kh As Ah"))
SIXTEEN = tuple(parse_cards("Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac"))


def _classes(cards: tuple[Card, ...]) -> HandClasses:
    return HandClasses.of(preset("two-card-guts").hand_ranking, cards=cards)


@pytest.mark.parametrize("cards", [TWELVE, SIXTEEN], ids=["12 cards", "16 cards"])
def test_rank_counts_equal_the_counted_triples_of_disjoint_hands(cards: tuple[Card, ...]) -> None:
    classes = _classes(cards)
    counted = mask_joint(classes)
    assert counted.sum() == _triples(cards)  # ordered deals of three two-card hands
    np.testing.assert_array_equal(rank_joint(classes), counted)
    joint = joint_of(classes)
    np.testing.assert_allclose(joint.sum(axis=(1, 2)), 1.0)
    np.testing.assert_allclose(joint, joint.transpose(0, 2, 1))  # the two others alike


def _triples(cards: tuple[Card, ...]) -> int:
    n = len(cards)
    return (n * (n - 1) // 2) * ((n - 2) * (n - 3) // 2) * ((n - 4) * (n - 5) // 2)


def _exhaustive(deal: DeckDeal, rules: GutsRules, strategy: list, values: np.ndarray) -> list:
    """``cv[p][history, action, class]`` summed over every ordered deal of three hands."""
    classes = deal.classes
    n, size = 3, len(classes.count)
    carry = deal.continuation(values)
    masks = [sum(1 << int(c) for c in hand) for hand in classes.hands]
    deals = [
        (a, b, c)
        for a, b, c in itertools.permutations(range(len(masks)), 3)
        if not masks[a] & masks[b] and not masks[a] & masks[c] and not masks[b] & masks[c]
    ]
    triples: dict[tuple[int, int, int], int] = {}
    for hands in deals:
        key = tuple(int(classes.of_hand[h]) for h in hands)
        triples[key] = triples.get(key, 0) + 1  # type: ignore[index]
    mine = np.zeros((n, size))  # deals per class of each position
    cv = [np.zeros((deal.histories(p), 2, size)) for p in range(n)]
    for key, weight in triples.items():
        levels = tuple(int(classes.level[c]) for c in key)
        for p in range(n):
            mine[p, key[p]] += weight
        for ins in deal.leaves():
            members = [p for p in range(n) if ins >> p & 1]
            *gains, next_pot = _settle(rules, levels, members, 0)
            chance = [
                strategy[p][deal.history(p, ins)][key[p]] if ins >> p & 1
                else 1.0 - strategy[p][deal.history(p, ins)][key[p]]
                for p in range(n)
            ]  # fmt: skip
            for p in range(n):
                others = np.prod([chance[j] for j in range(n) if j != p])
                payoff = gains[p] + next_pot * carry[p]
                cv[p][deal.history(p, ins), ins >> p & 1, key[p]] += weight * others * payoff
    for p in range(n):
        cv[p] /= np.where(mine[p] > 0, mine[p], 1.0)
    return cv


def _nash_conv(deal: DeckDeal, strategy: list, cv: list) -> float:
    """Each position's exhaustive best response (the better action at each of its
    information sets) less what it gets, summed."""
    total = 0.0
    for p in range(3):
        s, out, inn = strategy[p], cv[p][:, 0], cv[p][:, 1]
        played = s * inn + (1 - s) * out
        best = np.maximum(inn, out)
        if deal.forced(p, 0):
            best[0] = played[0] = inn[0]
        total += float(((best - played) @ deal.prior).sum())
    return total


RULES = [
    preset("two-card-guts"),
    preset("simultaneous-guts"),
    replace(preset("two-card-guts"), nobody_wins_contested=True),
    replace(preset("winner-takes-all-guts"), ghost=Ghost.NEVER),
    replace(preset("simultaneous-guts"), everyone_out=EveryoneOut.CHICKEN_FEE),
]


@pytest.mark.parametrize(
    "rules", RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.to_options().items())
)
def test_counterfactual_values_are_the_sums_over_every_deal(rules: GutsRules) -> None:
    deal = DeckDeal(model_of(rules, 3), _classes(TWELVE))
    rng = np.random.default_rng(7)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    values = rng.dirichlet(np.ones(3))
    expected = _exhaustive(deal, rules, strategy, values)
    ours = deal.counterfactual(strategy, values)
    for p in range(3):
        np.testing.assert_allclose(ours[p], expected[p], atol=1e-12)
        np.testing.assert_allclose(deal.counterfactual(strategy, values, p)[p], expected[p])
    mine, best = deal.values(strategy, ours)
    assert float((best - mine).sum()) == pytest.approx(_nash_conv(deal, strategy, expected))


def test_the_solved_small_pack_is_an_equilibrium_of_the_real_deal() -> None:
    rules = preset("two-card-guts")
    deal = DeckDeal(model_of(rules, 3), _classes(SIXTEEN))
    result = solve_deal(deal, 400, tolerance=1e-3)
    assert result.exploitability <= 1e-3
    exhaustive = _exhaustive(deal, rules, result.strategy, result.continuation)
    assert _nash_conv(deal, result.strategy, exhaustive) == pytest.approx(
        result.nash_conv, abs=1e-12
    )
    assert result.values.sum() == pytest.approx(1.0)


def test_three_players_solve_with_the_whole_pack_and_match_real_deals(
    shared_solve_cache: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """guts solve for three players removes cards exactly: its exploitability is the real
    game's, and real deals from one shuffled pack, played by its strategy, are worth what
    it says each position is worth."""
    from guts.solve import solve
    from guts.solve.check import dealt_values

    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))
    solution = solve("two-card-guts", 3)
    assert solution.exact and isinstance(solution.deal, DeckDeal)
    assert solution.result.exploitability <= 1e-4
    assert solution.to_json()["card_removal"] == "exact"
    dealt = dealt_values(solution, deals=30_000, seed=11)
    assert np.all(np.abs(dealt.values - dealt.model) < 4 * dealt.errors)


def test_the_bot_and_the_hint_play_the_real_game_strategy(
    shared_solve_cache: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three seats: the equilibrium bot's solution removes cards exactly, and the hint's
    chance of the earlier declarations is the joint's (not a product of priors)."""
    from guts.games.guts import new_session
    from guts.solve.bot import EquilibriumPolicy, advice

    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))
    session = new_session("two-card-guts", ["A", "B", "C"], buy_in=30)
    solution = EquilibriumPolicy(session.rules).solution(3)
    assert solution.exact and isinstance(solution.deal, DeckDeal)  # type: ignore[union-attr]
    session.start_deal(session.stacked({1: "Ah Kd", 2: "Qs Qd", 0: "7h 2s"}))
    session.act(1, "in")
    told = advice(solution, session.view(2))
    deal = solution.deal  # type: ignore[union-attr]
    cls = solution.classes.class_of(parse_cards("Qs Qd"))  # type: ignore[union-attr]
    stay = solution.result.strategy[0][0]
    reach = deal.history_chance(cls, [stay])
    assert reach == pytest.approx(float(deal.cond[cls] @ stay))
    cv = solution.counterfactual[1]  # type: ignore[union-attr]
    assert told.ev_in == pytest.approx(cv[1, 1, cls] / reach)  # type: ignore[union-attr]


def test_the_chance_of_the_earlier_declarations_counts_every_deal_of_the_pack() -> None:
    """The hint's divisor for the third position: the chance of the first two positions'
    declarations given its hand, for every class at once, is the mean over every deal of
    the 12-card pack where it holds that class (the two others' hands not independent)."""
    deal = DeckDeal(model_of(preset("two-card-guts"), 3), _classes(TWELVE))
    classes = deal.classes
    rng = np.random.default_rng(4)
    weights = [rng.random(len(classes.count)) for _ in range(2)]
    masks = [sum(1 << int(c) for c in hand) for hand in classes.hands]
    total, held = np.zeros(len(classes.count)), np.zeros(len(classes.count))
    for a, b, c in itertools.permutations(range(len(masks)), 3):
        if masks[a] & masks[b] or masks[a] & masks[c] or masks[b] & masks[c]:
            continue
        first, second, mine = (int(classes.of_hand[h]) for h in (a, b, c))
        total[mine] += weights[0][first] * weights[1][second]
        held[mine] += 1
    np.testing.assert_allclose(deal.history_chances(weights), total / held)
    assert deal.history_chance(3, weights) == pytest.approx(total[3] / held[3])


def test_sampled_real_deals_bracket_the_exact_nash_conv() -> None:
    """guts.solve.sampled (for packs and counts the exact sums do not reach): on a
    12-card pack, three players, its lower and upper estimates from real deals bracket
    the exhaustive NashConv within their sampling error, and its values are the exact
    ones within that error."""
    from guts.solve.sampled import sampled_nash_conv

    rules = preset("two-card-guts")
    deal = DeckDeal(model_of(rules, 3), _classes(TWELVE))
    rng = np.random.default_rng(9)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    carry = deal.fixed_point(strategy)
    mine, best = deal.values(strategy, deal.counterfactual(strategy, carry))
    exact = float((best - mine).sum())
    found = sampled_nash_conv(deal, strategy, carry, deals=60_000, seed=2)
    slack = 4 * found.lower_error
    assert found.lower - slack <= exact <= found.upper + slack
    assert found.upper - found.lower < 0.05 * exact
    np.testing.assert_allclose(found.values, mine, atol=slack)


@pytest.mark.parametrize("game", ["two-card-guts", "simultaneous-guts"])
def test_a_sampled_deal_sums_its_own_deals_as_the_engine_settles_them(game: str) -> None:
    """Four players on a 16-card pack: the sampled game's values are, per position,
    history, action and class, the sum over its deals (where the position held that
    class) of the others' chances times the engine's settlement, per deal and chance of
    the class."""
    from guts.solve.sampled import SampledDeal

    rules = preset(game)
    deal = SampledDeal(model_of(rules, 4), _classes(SIXTEEN), deals=300, seed=4)
    rng = np.random.default_rng(5)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    values = rng.dirichlet(np.ones(4))
    carry = deal.continuation(values)
    expected = [np.zeros((deal.histories(p), 2, len(deal.level))) for p in range(4)]
    held = np.zeros((4, len(deal.level)))
    for key in deal.sample.tolist():
        levels = tuple(int(deal.level[c]) for c in key)
        for p in range(4):
            held[p, key[p]] += 1
        for ins in deal.leaves():
            members = [p for p in range(4) if ins >> p & 1]
            *gains, next_pot = _settle(rules, levels, members, 0)
            chance = [
                strategy[p][deal.history(p, ins)][key[p]] if ins >> p & 1
                else 1.0 - strategy[p][deal.history(p, ins)][key[p]]
                for p in range(4)
            ]  # fmt: skip
            for p in range(4):
                others = np.prod([chance[j] for j in range(4) if j != p])
                row = deal.history(p, ins)
                expected[p][row, ins >> p & 1, key[p]] += others * (gains[p] + next_pot * carry[p])
    ours = deal.counterfactual(strategy, values)
    for p in range(4):
        np.testing.assert_allclose(ours[p], expected[p] / (300 * deal.prior), atol=1e-12)
        assert held[p].sum() == 300
        np.testing.assert_allclose(deal.counterfactual(strategy, values, p)[p], ours[p])
