"""The solver's counterfactual values against brute force over every deal and every set
of players in, each settled by the engine's own showdown functions (guts.games.guts.
showdown: contest and payers), for three players on four equally likely hands."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from guts.games.guts import preset
from guts.games.guts.rules import EveryoneOut, Ghost, GhostTie, GutsRules, Payment
from guts.games.guts.showdown import contest, payers
from guts.solve.cfr import Deal
from guts.solve.hands import HandClasses
from guts.solve.model import model_of

LEVELS, PLAYERS = 4, 3


def _settle(rules: GutsRules, hands: tuple[int, ...], ins: list[int], ghost: int) -> list[float]:
    """Each position's gain this deal plus the next pot, as (gains..., next)."""
    n = len(hands)
    gains = [0.0] * n
    if not ins:
        rule = rules.everyone_out.value
        if rule in ("henry", "wimp"):  # the best hands (ties: each) match, or ante for all
            best = max(hands)
            top = [p for p in range(n) if hands[p] == best]
            stake = 1.0 if rule == "henry" else n * (1.0 / n)
            return [-stake if p in top else 0.0 for p in range(n)] + [1.0 + len(top) * stake]
        fee = 1.0 / n if rule == "chicken-fee" else 0.0
        return [-fee] * n + [1.0 + n * fee]
    plays = rules.ghost is Ghost.ALWAYS or (rules.ghost is Ghost.LONE and len(ins) == 1)
    result = contest({p: hands[p] for p in ins}, ghost if plays else None, rules.ghost_ties)
    paying = payers(result.losers, {p: hands[p] for p in ins}, rules.payment)
    takes = bool(result.winners) and not (rules.nobody_wins_contested and len(ins) > 1)
    stake = 2.0 if rules.payment is Payment.WORST_DOUBLES else 1.0  # settle.contest_result
    for p in paying:
        gains[p] -= stake
    next_pot = stake * len(paying) + (0.0 if takes else 1.0)
    if takes:
        prize = 1.0 + (len(paying) if rules.winner_takes_all else 0.0)
        next_pot -= prize - 1.0
        for p in result.winners:
            gains[p] += prize / len(result.winners)
    return [*gains, next_pot]


def _brute(deal: Deal, rules: GutsRules, strategy: list[np.ndarray], values: np.ndarray) -> list:
    n = deal.players
    carry = deal.continuation(values)
    cv = [np.zeros((deal.histories(p), 2, LEVELS)) for p in range(n)]
    for hands in itertools.product(range(LEVELS), repeat=n):
        for ins in range(1 << n):
            members = [p for p in range(n) if ins >> p & 1]
            if deal.model.in_turn and deal.model.auto_in and not members:
                continue
            chance = [
                strategy[p][deal.history(p, ins)][hands[p]] if ins >> p & 1
                else 1.0 - strategy[p][deal.history(p, ins)][hands[p]]
                for p in range(n)
            ]  # fmt: skip
            payoff = np.zeros(n)
            for ghost in range(LEVELS):
                *gains, next_pot = _settle(rules, hands, members, ghost)
                payoff += (np.array(gains) + next_pot * carry) / LEVELS
            for p in range(n):
                others = np.prod([chance[j] / LEVELS for j in range(n) if j != p])
                cv[p][deal.history(p, ins), ins >> p & 1, hands[p]] += others * payoff[p]
    return cv


@pytest.mark.parametrize(
    "rules",
    [
        preset("two-card-guts"),
        preset("simultaneous-guts"),
        preset("ghost-guts"),
        replace(preset("ghost-guts"), ghost_ties=GhostTie.PUSH),
        replace(
            preset("ghost-guts"),
            ghost_ties=GhostTie.PLAYERS_WIN,
            declare=preset("simultaneous-guts").declare,
        ),
        preset("winner-takes-all-guts"),
        replace(preset("two-card-guts"), nobody_wins_contested=True),
        replace(preset("single-loser-guts"), ante_every_deal=False),
        replace(preset("simultaneous-guts"), payment=Payment.SINGLE_LOSER),
        replace(preset("simultaneous-guts"), everyone_out=EveryoneOut.HENRY),
        replace(preset("simultaneous-guts"), payment=Payment.WORST_DOUBLES),
        replace(preset("two-card-guts"), payment=Payment.WORST_DOUBLES),
        replace(preset("two-card-guts"), everyone_out=EveryoneOut.WIMP, last_in_when_all_out=False),
        replace(preset("ghost-guts"), everyone_out=EveryoneOut.HENRY),
    ],
    ids=lambda r: ",".join(f"{k}={v}" for k, v in r.to_options().items()) or "base",
)
def test_counterfactual_values_are_the_brute_force_sums(rules: GutsRules) -> None:
    deal = Deal(model_of(rules, PLAYERS), HandClasses.uniform(LEVELS), exact=False)
    rng = np.random.default_rng(4)
    strategy = deal.force([rng.random(s.shape) for s in deal.uniform()])
    values = rng.dirichlet(np.ones(PLAYERS))
    expected = _brute(deal, rules, strategy, values)
    for ours, theirs in zip(deal.counterfactual(strategy, values), expected, strict=True):
        np.testing.assert_allclose(ours, theirs, atol=1e-12)
