"""Measuring what the independent-hands model leaves out: real deals, dealt without
replacement from one pack, played by a solved strategy.

For three or more players the solver draws each hand independently (card removal between
players ignored). :func:`dealt_values` deals ``deals`` real deals (every hand, and the
ghost's, from one shuffled pack), and for each one sums, over every set of players who
may stay in, the chance of that set under the solved strategy times each position's
payoff with the solved continuation values. Its means, with their standard errors, are
each position's value when cards are really removed; the gap to the model's values is
the error of ignoring removal (``docs/solve.md`` records it). :func:`hi_lo_dealt_values`
does the same for Hi-Lo.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from guts.solve.hands import HandClasses
from guts.solve.model import Model
from guts.solve.solution import Solution

if TYPE_CHECKING:
    from guts.solve.chain import ChainSolution
    from guts.solve.hilo_solution import HiLoSolution

__all__ = ["DealtValues", "capped_values", "dealt_values", "hi_lo_dealt_values"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class DealtValues:
    """Each position's mean value over real deals, its standard error, and the model's."""

    values: FloatArray
    errors: FloatArray
    model: FloatArray
    deals: int

    @property
    def gap(self) -> float:
        """The largest difference between the dealt and the model's values (pot units)."""
        return float(np.abs(self.values - self.model).max())


def dealt_values(solution: Solution, deals: int = 20_000, seed: int = 1) -> DealtValues:
    """Each position's value over ``deals`` real deals (see the module docstring)."""
    model, classes = solution.model, solution.classes
    n = model.players
    hands = _dealt(classes, n + 1, deals, seed)  # the last column is the ghost's
    strength = classes.level[hands]
    carry = np.roll(solution.result.continuation, 1)
    total = np.zeros((deals, n))
    for ins in range(1 << n):
        chance = np.ones(deals)
        for p in range(n):
            history = ins & ((1 << p) - 1) if model.in_turn else 0
            p_in = solution.result.strategy[p][history][hands[:, p]]
            chance *= p_in if ins >> p & 1 else 1.0 - p_in
        if not chance.any():
            continue
        total += chance[:, None] * _payoffs(model, ins, strength, carry, solution)
    values = total.mean(axis=0)
    errors = total.std(axis=0, ddof=1) / np.sqrt(deals)
    return DealtValues(values, errors, solution.result.values.copy(), deals)


def hi_lo_dealt_values(solution: HiLoSolution, deals: int = 20_000, seed: int = 1) -> DealtValues:
    """Each position's value over ``deals`` real Hi-Lo deals (as :func:`dealt_values`:
    every leaf of declarations, its chance under the solved strategy, settled by
    :func:`guts.solve.hilo.settle`)."""
    from guts.solve.hilo import settle

    model, classes = solution.model, solution.classes
    n, base = model.players, len(model.ways)
    hands = _dealt(classes, n, deals, seed)
    levels = [classes.level[hands[:, p]].astype(np.float64) for p in range(n)]
    carry = np.roll(solution.result.continuation, 1)
    total = np.zeros((deals, n))
    for leaf in product(range(base), repeat=n):
        chance = np.ones(deals)
        for p in range(n):
            history = sum(leaf[q] * base**q for q in range(p)) if model.in_turn else 0
            chance *= solution.result.strategy[p][history][leaf[p]][hands[:, p]]
        if chance.any():
            pays = settle(model, tuple(model.ways[a] for a in leaf), levels)
            total += chance[:, None] * (pays[:n] + pays[n] * carry[:, None]).T
    values = total.mean(axis=0)
    errors = total.std(axis=0, ddof=1) / np.sqrt(deals)
    return DealtValues(values, errors, solution.result.values.copy(), deals)


def _dealt(classes: HandClasses, hands: int, deals: int, seed: int) -> IntArray:
    """The classes of ``hands`` hands a deal, dealt from one shuffled pack ``deals``
    times (a row a deal)."""
    size = classes.size
    rng = np.random.default_rng(seed)
    deck = np.unique(classes.hands)
    order = deck[np.argsort(rng.random((deals, len(deck))), axis=1)]
    lookup = _hand_lookup(classes.hands)
    columns = [_hand_of(order[:, p * size : (p + 1) * size], lookup) for p in range(hands)]
    return np.asarray(classes.of_hand[np.stack(columns, 1)], dtype=np.int64)


def _hand_lookup(hands: IntArray) -> dict[tuple[int, ...], int]:
    return {tuple(row): index for index, row in enumerate(hands.tolist())}


def _hand_of(cards: IntArray, lookup: dict[tuple[int, ...], int]) -> IntArray:
    rows = np.sort(cards, axis=1).tolist()
    return np.array([lookup[tuple(row)] for row in rows], dtype=np.int64)


def _payoffs(
    model: Model, ins: int, strength: IntArray, carry: FloatArray, solution: Solution
) -> FloatArray:
    """Per deal and position: the payoff (with the continuation) when ``ins`` stay in."""
    n = model.players
    deals = len(strength)
    members = [p for p in range(n) if ins >> p & 1]
    out = np.zeros((deals, n))
    if not members and model.best_pays:  # the best hands pay (Henry, wimp)
        best = strength[:, :n].max(axis=1)
        paying = strength[:, :n] == best[:, None]
        for count in np.unique(paying.sum(axis=1)).tolist():
            rows = paying.sum(axis=1) == count
            pay = model.everyone_out(count)
            gain = np.where(paying[rows], pay.top, pay.out)
            out[rows] = gain + pay.next * carry[None, :]
        return out
    if not members:
        pay = model.payoff(0, 0, "players")
        return np.tile(pay.out + pay.next * carry, (deals, 1))
    mine = strength[:, members]
    best = mine.max(axis=1)
    top = (mine == best[:, None]).sum(axis=1)
    outcome = _outcomes(model, len(members), best, strength[:, n], solution)
    for count in np.unique(top).tolist():
        for index, name in enumerate(("players", "ghost", "push")):
            rows = (top == count) & (outcome == index)
            if not rows.any():
                continue
            pay = model.payoff(len(members), count, name)
            for p in range(n):
                if p in members:
                    at_top = strength[rows, p] == best[rows]
                    gain = np.where(at_top, pay.top, pay.loser)
                else:
                    gain = np.full(int(rows.sum()), pay.out)
                out[rows, p] = gain + pay.next * carry[p]
    return out


def _outcomes(
    model: Model, count: int, best: IntArray, ghost: IntArray, solution: Solution
) -> IntArray:
    """0 players win (or no ghost), 1 the ghost wins (or a lone hand fails to qualify),
    2 a push."""
    if count == 1 and model.qualifier:
        from guts.solve.cfr import qualifying_levels

        qualifies = qualifying_levels(solution.classes)
        return np.where(qualifies[best] > 0, 0, 1).astype(np.int64)
    if not model.ghost_plays(count):
        return np.zeros(len(best), dtype=np.int64)
    tie = {"players-win": 0, "ghost-wins": 1, "push": 2}[model.ghost_ties.value]
    result = np.where(best > ghost, 0, 1)
    return np.where(best == ghost, tie, result).astype(np.int64)


def capped_values(solution: ChainSolution, most_aside: int | None = None) -> FloatArray:
    """The first pot's values (pot units, by position) of the solved strategies of a
    pot cap or limit, with the chips aside and the last, partial refill played as the
    engine plays them (``guts.games.guts.settle.normalize_pot``), every pot of one chip
    or more a state: what the chain's model of the cap leaves out (``docs/solve.md``).

    A deal at pot ``p`` plays the strategy of the chain's pot for ``p`` (as the bot does)
    and leaves a next pot of ``k p``: past the cap the excess goes aside; a pot won with
    chips aside is refilled from them, up to the cap. Values are found by sweeping the
    linear equations to their fixed point, the aside cut at ``most_aside`` chips (twenty
    caps by default), past which each chip aside is worth ``1 / players`` to everyone."""
    n, cap = solution.players, solution.cap
    most = most_aside if most_aside is not None else 20 * cap
    terms = {}
    for state in solution.states:
        base, strategy = state.deal.parts[0], state.result.strategy
        gain = base.values(strategy, base.counterfactual(strategy, np.zeros(n)))[0]
        terms[state.pot] = (gain, {k: d.growth(strategy) for k, d in state.deal.parts.items()})
    multiples = sorted(next(iter(terms.values()))[1])
    size = cap + most + 2  # pots 0..cap with nothing aside, then the cap with 1..most aside
    end = size - 1  # the session is over
    gains = np.zeros((size, n))
    follow = np.full((size, len(multiples)), end, dtype=np.int64)
    chance = np.zeros((size, len(multiples)))
    for index in range(1, cap + most + 1):
        pot, aside = (index, 0) if index <= cap else (cap, index - cap)
        gain, chances = terms[solution.at_pot(pot).pot]
        gains[index] = gain * pot
        for column, k in enumerate(multiples):
            chance[index, column] = chances[k]
            target, extra = _refilled(k * pot, aside, cap, most)
            follow[index, column] = end if target < 0 else target
            gains[index] += chances[k] * extra / n
    values = np.zeros((size, n))
    for _ in range(100_000):
        following = np.roll(values[follow], 1, axis=2)  # [state, k, position]
        new = gains + np.einsum("sk,skp->sp", chance, following)
        new[end] = 0.0
        if np.abs(new - values).max() < 1e-13:
            values = new
            break
        values = new
    first = solution.states[-1].pot
    return np.asarray(values[first] / first, dtype=np.float64)


def _refilled(pot: int, aside: int, cap: int, most: int) -> tuple[int, float]:
    """The state after a deal leaves ``pot`` chips with ``aside`` set aside (-1: the
    session is over), and the chips aside past ``most`` (each worth an equal share)."""
    if pot > cap:
        pot, aside = cap, aside + pot - cap
    elif pot == 0 and aside:
        pot, aside = min(cap, aside), aside - min(cap, aside)
    elif pot == 0:
        return -1, 0.0
    if aside == 0:
        return pot, 0.0
    beyond = max(0, aside - most)
    return cap + min(aside, most), float(beyond)
