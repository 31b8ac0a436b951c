"""Exploitability in the real game by sampling: every hand dealt from one pack.

Where the exact sums of :mod:`guts.solve.removal` are out of reach (four or more players,
three-card hands), :func:`sampled_nash_conv` deals ``deals`` real deals (all hands from
one shuffled pack), and sums each position's payoff at every leaf (every set of players
in), weighted by the chance of the others' declarations there, into counterfactual values
per information set: unbiased estimates of the real game's. A best response takes the
better action at each information set; because it picks with noisy values, the pooled
sample's best response overstates the real one (an **upper** estimate), while choosing
with one half of the deals and valuing the choice on the other (and the other way round)
values a real strategy without that bias (a **lower** estimate: no strategy beats the
best response). The real NashConv lies between the two, up to the lower one's sampling
error (``lower_error``, from the spread of the deals' contributions).

The payoffs are :class:`~guts.solve.cfr.Deal`'s tables by the strength levels of the hands
in (the ghost, where there is one, from the whole pack as in the model). Not for a single
loser, the best hands paying when everyone is out, or the dealer's option.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from guts.solve.cfr import Deal
from guts.solve.hands import HandClasses
from guts.solve.model import Model

__all__ = ["SampledDeal", "SampledNashConv", "sampled_nash_conv"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class SampledNashConv:
    """NashConv (summed over positions, pot units) of a profile in the real game,
    estimated from ``deals`` real deals: between ``lower`` (standard error
    ``lower_error``) and ``upper``; ``values`` each position's sampled value."""

    lower: float
    upper: float
    lower_error: float
    values: FloatArray
    deals: int

    @property
    def per_player(self) -> tuple[float, float]:
        """(lower, upper) per player: the exploitability's bracket."""
        n = len(self.values)
        return self.lower / n, self.upper / n


def sampled_nash_conv(
    deal: Deal,
    strategy: list[FloatArray],
    continuation: FloatArray,
    *,
    deals: int = 200_000,
    seed: int = 1,
    chunk: int = 25_000,
) -> SampledNashConv:
    """The real game's NashConv of ``strategy`` with the next pots worth
    ``continuation`` (per position, as :meth:`Deal.counterfactual` takes them), from
    ``deals`` real deals (see the module docstring)."""
    m = deal.model
    if m.single_loser or m.best_pays or m.dealer_option or m.no_peek:
        raise ValueError("sampled values cover plain match payment and declarations once")
    n, size = deal.players, len(deal.level)
    carry = deal.continuation(np.asarray(continuation, dtype=np.float64))
    rng = np.random.default_rng(seed)
    # per half: sums of the values and of their squares per (position, history, action,
    # class), and how many deals gave each position each class
    shape = (2, n, max(deal.histories(p) for p in range(n)), 2, size)
    sums, squares = np.zeros(shape), np.zeros(shape)
    counts = np.zeros((2, n, size))
    lookup = _Lookup(deal)
    done = 0
    while done < deals:
        take = min(chunk, deals - done)
        classes = lookup.deal(rng, take, n)  # (take, n)
        half = (np.arange(done, done + take) % 2).astype(np.int64)
        _accumulate(deal, strategy, carry, classes, half, sums, squares, counts)
        done += take
    return _bracket(deal, strategy, sums, squares, counts, deals)


class _Lookup:
    """Deals real hands and names their classes."""

    def __init__(self, deal: Deal) -> None:
        hands = deal.classes.hands
        self.size = hands.shape[1]
        self.pack = np.unique(hands)
        self.keys = _keys(np.sort(hands, axis=1))
        self.order = np.argsort(self.keys)
        self.of_hand = deal.classes.of_hand

    def deal(self, rng: np.random.Generator, count: int, players: int) -> IntArray:
        cards = players * self.size
        shuffled = np.argsort(rng.random((count, len(self.pack))), axis=1)[:, :cards]
        codes = self.pack[shuffled].reshape(count, players, self.size)
        keys = _keys(np.sort(codes, axis=2).reshape(count * players, self.size))
        found = self.order[np.searchsorted(self.keys, keys, sorter=self.order)]
        return np.asarray(self.of_hand[found].reshape(count, players), dtype=np.int64)


def _keys(hands: IntArray) -> IntArray:
    key = np.zeros(len(hands), dtype=np.int64)
    for column in range(hands.shape[1]):
        key = key * 64 + hands[:, column]
    return key


def _accumulate(
    deal: Deal,
    strategy: list[FloatArray],
    carry: FloatArray,
    classes: IntArray,
    half: IntArray,
    sums: FloatArray,
    squares: FloatArray | None,
    counts: FloatArray,
    only: int | None = None,
) -> None:
    """Add each position's (or only ``only``'s) value at every leaf of every deal into
    ``sums`` (and its square into ``squares``) by half, position, history, action and
    class; count the classes into ``counts``."""
    n, size = deal.players, len(deal.level)
    level = deal.level[classes]  # (deals, n)
    slot = half[:, None] * size + classes  # (deals, n): the half and the class, flat
    for p in range(n):
        counts[:, p] += np.bincount(slot[:, p], minlength=2 * size).reshape(2, size)
    for ins in deal.leaves():
        members = [j for j in range(n) if ins >> j & 1]
        count = len(members)
        chance = np.empty((n, len(classes)))
        for j in range(n):
            p_in = strategy[j][deal.history(j, ins)][classes[:, j]]
            chance[j] = p_in if ins >> j & 1 else 1.0 - p_in
        before = np.ones((n + 1, len(classes)))  # products of the chances before j
        after = np.ones((n + 1, len(classes)))  # and after j
        for j in range(n):
            before[j + 1] = before[j] * chance[j]
            after[n - 1 - j] = after[n - j] * chance[n - 1 - j]
        best = ties = np.zeros(len(classes), dtype=np.int64)
        if count:
            best = level[:, members].max(axis=1)
            ties = (level[:, members] == best[:, None]).sum(axis=1) - 1
            win = deal.top_gain[count][best, ties], deal.top_next[count][best, ties]
            lose = deal.lose_gain[count][best, ties], deal.lose_next[count][best, ties]
            out = deal.out_gain[count][best, ties], deal.out_next[count][best, ties]
        for p in range(n) if only is None else (only,):
            others = before[p] * after[p + 1]
            c = carry[p]
            if ins >> p & 1:
                top = level[:, p] == best
                gain = np.where(top, win[0] + c * win[1], lose[0] + c * lose[1])
            elif count:
                gain = out[0] + c * out[1]
            else:
                gain = np.full(len(classes), deal.out_gain[0][0, 0] + c * deal.out_next[0][0, 0])
            value = others * gain
            row, action = deal.history(p, ins), ins >> p & 1
            found = np.bincount(slot[:, p], weights=value, minlength=2 * size)
            sums[:, p, row, action] += found.reshape(2, size)
            if squares is not None:
                found = np.bincount(slot[:, p], weights=value * value, minlength=2 * size)
                squares[:, p, row, action] += found.reshape(2, size)


def _bracket(
    deal: Deal,
    strategy: list[FloatArray],
    sums: FloatArray,
    squares: FloatArray,
    counts: FloatArray,
    deals: int,
) -> SampledNashConv:
    n = deal.players
    both = counts.sum(axis=0)  # (n, classes)
    upper = lower = variance = 0.0
    values = np.zeros(n)
    for p in range(n):
        rows = deal.histories(p)
        s = strategy[p]
        weight = both[p] / deals  # the class's share of deals
        pooled = sums[:, p, :rows].sum(axis=0) / np.maximum(both[p], 1.0)  # (rows, 2, classes)
        per_half = sums[:, p, :rows] / np.maximum(counts[:, p][:, None, None, :], 1.0)
        free = np.ones(rows, dtype=bool)
        free[0] = not deal.forced(p, 0)
        played = s * pooled[:, 1] + (1 - s) * pooled[:, 0]
        values[p] = float((played * weight).sum())
        gain = (np.maximum(pooled[:, 1], pooled[:, 0]) - played)[free]
        upper += float((gain * weight).sum())
        for pick, judge in ((0, 1), (1, 0)):
            chosen = per_half[pick][:, 1] > per_half[pick][:, 0]
            valued = np.where(chosen, per_half[judge][:, 1], per_half[judge][:, 0])
            mine = s * per_half[judge][:, 1] + (1 - s) * per_half[judge][:, 0]
            share = counts[judge, p] / counts[judge].sum(axis=1)[p]
            lower += float(((valued - mine)[free] * share).sum()) / 2
        # the sampling variance of the values, each class's mean over its deals
        mean_sq = squares[:, p, :rows].sum(axis=0) / np.maximum(both[p], 1.0)
        spread = np.maximum(mean_sq - pooled**2, 0.0).sum(axis=1)  # (rows, classes)
        variance += float((spread * weight**2 / np.maximum(both[p], 1.0)).sum())
    return SampledNashConv(lower, upper, float(np.sqrt(variance)), values, deals)


class SampledDeal(Deal):
    """A deal whose counterfactual values are sums over ``deals`` real deals from one
    pack, drawn once (``seed``): the *sampled game*, whose equilibrium approaches the
    real game's as the deals grow (card removal between every pair of players kept).
    Each position's values are means over the deals where it held each class; its
    exploitability is the sampled game's (:func:`sampled_nash_conv` on fresh deals gives
    the real game's)."""

    def __init__(self, model: Model, classes: HandClasses, deals: int, seed: int = 1) -> None:
        if model.single_loser or model.best_pays or model.dealer_option or model.no_peek:
            raise ValueError("sampled deals cover plain match payment and declarations once")
        super().__init__(model, classes, exact=False)
        rng = np.random.default_rng(seed)
        self.sample = _Lookup(self).deal(rng, deals, model.players)
        size = len(self.level)
        self.held = np.stack(
            [np.bincount(self.sample[:, p], minlength=size) for p in range(model.players)]
        ).astype(np.float64)

    def _compiled_fits(self) -> bool:
        return False

    def _values(
        self, strategy: list[FloatArray], carry: FloatArray, position: int | None
    ) -> list[FloatArray]:
        n, size = self.players, len(self.level)
        rows = max(self.histories(p) for p in range(n))
        sums = np.zeros((2, n, rows, 2, size))
        counts = np.zeros((2, n, size))
        half = np.zeros(len(self.sample), dtype=np.int64)
        _accumulate(self, strategy, carry, self.sample, half, sums, None, counts, position)
        # per deal and class's chance, not per deal held: then a position's value (the
        # classes weighted by their chance) is the mean over the deals, as the game's,
        # and each information set's values are its mean's, scaled alike for both actions
        expected = len(self.sample) * self.prior
        return [sums[0, p, : self.histories(p)] / expected for p in range(n)]
