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
error (``lower_error``): the lower estimate is a mean over the deals of what each adds to
it (its values times the chosen action's indicator less the strategy's chance of that
action), so its standard error is that of a mean of independent numbers.

:class:`SampledDeal` solves on such deals (the *sampled game*: card removal between
every pair of players kept); a solve measured by :func:`sampled_nash_conv` must be
measured on other deals (another seed) than its own, or the measure would reward fitting
them. With numba the sums over the deals are compiled (:mod:`guts.solve.compiled_sampled`).

The payoffs are :class:`~guts.solve.cfr.Deal`'s tables by the strength levels of the hands
in (the ghost, where there is one, from the whole pack as in the model). Not for a single
loser, the best hands paying when everyone is out, or the dealer's option.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from guts.solve.cfr import Deal
from guts.solve.hands import HandClasses
from guts.solve.model import Model

__all__ = [
    "SampledDeal",
    "SampledNashConv",
    "SampledSession",
    "sampled_nash_conv",
    "sampled_session",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


PRUNED = True
"""Whether the compiled sums skip the leaves whose values are all exactly zero (where the
strategies are pure): the same sums to the bit, in a fraction of the steps once CFR has
settled most hands (the tests compare the two walks)."""

DRAWN_AT_ONCE = 250_000
"""The most deals :class:`SampledDeal` shuffles at once (the shuffle takes about 1,000
bytes a deal while it runs); more are drawn in runs of this many from the same generator,
whose stream of numbers does not depend on the runs' length (the same deals either
way)."""


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
    seed: int = 2,
    chunk: int = 25_000,
) -> SampledNashConv:
    """The real game's NashConv of ``strategy`` with the next pots worth
    ``continuation`` (per position, as :meth:`Deal.counterfactual` takes them), from
    ``deals`` real deals (see the module docstring). The default ``seed`` differs from
    :class:`SampledDeal`'s, so that a sampled solve is measured on deals it never saw."""
    _check_measurable(deal, seed)
    n, size = deal.players, len(deal.level)
    carry = deal.continuation(np.asarray(continuation, dtype=np.float64))
    rng = np.random.default_rng(seed)
    # per half: sums of the values per (position, history, action, class), and how many
    # deals gave each position each class
    sums = np.zeros((2, n, max(deal.histories(p) for p in range(n)), 2, size))
    counts = np.zeros((2, n, size))
    lookup = _Lookup(deal)
    chunks: list[tuple[int, NDArray[np.int16]]] = []  # each run's first deal and classes
    done = 0
    while done < deals:
        take = min(chunk, deals - done)
        classes = lookup.deal(rng, take, n)  # (take, n)
        half = (np.arange(done, done + take) % 2).astype(np.int64)
        _accumulate(deal, strategy, carry, classes, half, sums, counts)
        chunks.append((done, classes.astype(np.int16)))  # kept for the lower estimate
        done += take
    upper, values = _upper(deal, strategy, sums, counts, deals)
    lower, error = _lower(deal, strategy, carry, sums, counts, chunks)
    return SampledNashConv(lower, upper, error, values, deals)


@dataclass(frozen=True)
class SampledSession:
    """What a stationary best response over the whole session gains (summed over
    positions, pot units) in the real game, estimated from ``deals`` real deals: the
    pooled deals' best response (``upper``: biased up, as :class:`SampledNashConv`'s) and
    one chosen on each half and valued on the other (``lower``, the two halves' mean;
    ``halves`` each), with the lower estimate's standard error (``lower_error``: from the
    spread of the valuing half's batches, the two halves' taken as fully correlated)."""

    lower: float
    upper: float
    halves: tuple[float, float]
    players: int
    deals: int
    lower_error: float = float("nan")

    @property
    def per_player(self) -> tuple[float, float]:
        """(lower, upper) per player."""
        return self.lower / self.players, self.upper / self.players


def sampled_session(
    deal: Deal,
    strategy: list[FloatArray],
    *,
    deals: int = 200_000,
    seed: int = 2,
    chunk: int = 25_000,
    batches: int = 8,
) -> SampledSession | None:
    """The real game's whole-session exploitability of ``strategy`` from ``deals`` real
    deals (:func:`guts.solve.session.session_gains` on sampled counterfactual values:
    what is won now and the next pot summed apart in one pass, the values being linear in
    the next pot's worth);
    None where the value iteration does not settle (pots that grow on average). Each half
    of the deals is summed in ``batches`` batches: the deviation chosen on one half is
    valued on each batch of the other, whose spread gives the standard error."""
    from guts.solve.session import cyclic_values, stationary_best

    _check_measurable(deal, seed)
    n, size, parts = deal.players, len(deal.level), 2 * batches
    rows = max(deal.histories(p) for p in range(n))
    apart = np.zeros((parts, 2, n, rows, 2, size))  # part, now or the next pot, ...
    rng, lookup, done = np.random.default_rng(seed), _Lookup(deal), 0
    while done < deals:
        take = min(chunk, deals - done)
        classes = lookup.deal(rng, take, n)
        part = (np.arange(done, done + take) % parts).astype(np.int64)  # its half: part % 2
        _accumulate_apart(deal, strategy, classes, part, apart)
        done += take
    sums = apart.swapaxes(0, 1)  # now or the next pot, part, ...
    held = np.array([(deals - b + parts - 1) // parts for b in range(parts)], dtype=np.float64)

    def values(part: FloatArray, count: float) -> tuple[list[FloatArray], list[FloatArray]]:
        scale = count * deal.prior
        zero = [part[0, p, : deal.histories(p)] / scale for p in range(n)]
        slope = [part[1, p, : deal.histories(p)] / scale for p in range(n)]
        return zero, slope

    def own(zero: list[FloatArray], slope: list[FloatArray]) -> FloatArray:
        return cyclic_values(deal.values(strategy, zero)[0], deal.values(strategy, slope)[0])

    def gain(picks: list[FloatArray], zero: list[FloatArray], slope: list[FloatArray]) -> float:
        deviating = cyclic_values(deal.values(picks, zero)[0], deal.values(picks, slope)[0])
        return float((deviating - own(zero, slope)).sum())

    zero, slope = values(sums.sum(axis=1), float(deals))
    mine = own(zero, slope)
    best = stationary_best(deal, strategy, zero, slope, mine)
    if best is None:
        return None
    gains, errors = [], []
    for judge in (0, 1):
        zero, slope = values(sums[:, judge::2].sum(axis=1), held[judge::2].sum())
        chosen = stationary_best(deal, strategy, zero, slope, own(zero, slope))
        if chosen is None:
            return None
        picks = _picks(deal, [z + c * s for z, s, c in
                              zip(zero, slope, np.roll(chosen, 1), strict=True)])  # fmt: skip
        other = slice(1 - judge, None, 2)
        gains.append(gain(picks, *values(sums[:, other].sum(axis=1), held[other].sum())))
        each = [gain(picks, *values(sums[:, b], held[b])) for b in range(1 - judge, parts, 2)]
        errors.append(float(np.std(each, ddof=1)) / np.sqrt(batches) if batches > 1 else 0.0)
    return SampledSession(
        lower=sum(gains) / 2, upper=float((best - mine).sum()), halves=(gains[0], gains[1]),
        players=n, deals=deals, lower_error=sum(errors) / 2,
    )  # fmt: skip


def _check_measurable(deal: Deal, seed: int) -> None:
    """ValueError unless sampled deals can measure ``deal``'s game, on deals other than a
    sampled solve's own."""
    m = deal.model
    if m.single_loser or m.best_pays or m.dealer_option or m.no_peek:
        raise ValueError("sampled values cover plain match payment and declarations once")
    if isinstance(deal, SampledDeal) and deal.seed == seed:
        raise ValueError("measure a sampled solve on other deals than its own (another seed)")


def _picks(deal: Deal, cv: list[FloatArray]) -> list[FloatArray]:
    """The pure strategy that takes the better action at every information set of ``cv``
    (in where the position is in automatically)."""
    picks = [(c[:, 1] > c[:, 0]).astype(np.float64) for c in cv]
    return deal.force(picks)


def _lower(
    deal: Deal,
    strategy: list[FloatArray],
    carry: FloatArray,
    sums: FloatArray,
    counts: FloatArray,
    chunks: list[tuple[int, NDArray[np.int16]]],
) -> tuple[float, float]:
    """The lower estimate and its standard error over the deals: each half's best
    response (chosen on the other half's values) less the strategy, as a mean over the
    half's deals of what each deal adds to it (its values times the chosen action's
    indicator less the strategy's chance of that action)."""
    n = deal.players
    estimate = variance = 0.0
    for judge in (0, 1):
        pick = 1 - judge
        weights = np.zeros(sums.shape[1:])  # (n, rows, 2, classes)
        for p in range(n):
            rows = deal.histories(p)
            mean = sums[pick, p, :rows] / np.maximum(counts[pick, p][None, None, :], 1.0)
            chosen = (mean[:, 1] > mean[:, 0]).astype(np.float64)
            s = strategy[p]
            weights[p, :rows, 1] = chosen - s
            weights[p, :rows, 0] = (1.0 - chosen) - (1.0 - s)
            if deal.forced(p, 0):
                weights[p, 0] = 0.0
        per_deal = np.concatenate(  # deal i is in half i % 2
            [_per_deal(deal, strategy, carry, c[(judge - first) % 2 :: 2], weights)
             for first, c in chunks]
        )  # fmt: skip
        estimate += float(per_deal.mean()) / 2
        variance += float(per_deal.var(ddof=1)) / len(per_deal) / 4
    return estimate, float(np.sqrt(variance))


def _per_deal(
    deal: Deal,
    strategy: list[FloatArray],
    carry: FloatArray,
    compact: NDArray[np.int16],
    weights: FloatArray,
) -> FloatArray:
    """Per deal of ``compact`` (the deals' classes, kept small): the sum over positions
    and leaves of each value times ``weights[p, row, action, class]``."""
    n = deal.players
    kernel = _compiled()
    classes = np.ascontiguousarray(compact, dtype=np.int64)
    if kernel is not None:
        sums = np.zeros((1, *weights.shape))
        per_deal = np.zeros(len(classes))
        kernel(
            _padded(deal, strategy), classes, np.zeros(len(classes), dtype=np.int64),
            deal.model.in_turn, len(deal.leaves()) < 1 << n, deal.level.astype(np.int64),
            carry, deal.packed, -1, sums, weights, per_deal, True, False, PRUNED,
        )  # fmt: skip
        return per_deal
    per_deal = np.zeros(len(classes))
    for p, row, action, value in _leaf_values(deal, strategy, carry, classes, None):
        per_deal += value * weights[p, row, action, classes[:, p]]
    return per_deal


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
    counts: FloatArray | None,
    only: int | None = None,
) -> None:
    """Add each position's (or only ``only``'s) value at every leaf of every deal into
    ``sums`` by part (``half``: each deal's, a half of the deals or a batch of one),
    position, history, action and class; count the classes into ``counts`` (unless it is
    None). Compiled where numba is (the two paths are held equal by the tests)."""
    n, size = deal.players, len(deal.level)
    if counts is not None:
        slot = half[:, None] * size + classes  # (deals, n): the part and the class, flat
        for p in range(n):
            found = np.bincount(slot[:, p], minlength=len(counts) * size)
            counts[:, p] += found.reshape(len(counts), size)
    kernel = _compiled()
    if kernel is not None:
        kernel(
            _padded(deal, strategy), np.ascontiguousarray(classes, dtype=np.int64),
            np.asarray(half, dtype=np.int64), deal.model.in_turn, len(deal.leaves()) < 1 << n,
            deal.level.astype(np.int64), carry, deal.packed, -1 if only is None else only,
            sums, np.zeros((1, 1, 1, 1)), np.zeros(1), False, False, PRUNED,
        )  # fmt: skip
        return
    _accumulate_numpy(deal, strategy, carry, classes, half, sums, only)


def _accumulate_apart(
    deal: Deal, strategy: list[FloatArray], classes: IntArray, part: IntArray, apart: FloatArray
) -> None:
    """Add every position's value at every leaf of every deal into ``apart[part, 0]``
    (what is won now) and ``apart[part, 1]`` (the next pot, in pots), by position,
    history, action and class: the values at any continuation ``c`` are ``now + c *
    next``. One compiled pass; in numpy, the sums at ``c`` 0 and 1."""
    n = deal.players
    kernel = _compiled()
    if kernel is not None:
        parts, _, *shape = apart.shape
        kernel(
            _padded(deal, strategy), np.ascontiguousarray(classes, dtype=np.int64), part,
            deal.model.in_turn, len(deal.leaves()) < 1 << n, deal.level.astype(np.int64),
            np.zeros(n), deal.packed, -1, apart.reshape(2 * parts, *shape),
            np.zeros((1, 1, 1, 1)), np.zeros(1), False, True, PRUNED,
        )  # fmt: skip
        return
    now, both = np.zeros_like(apart[:, 0]), np.zeros_like(apart[:, 0])
    _accumulate_numpy(deal, strategy, np.zeros(n), classes, part, now, None)
    _accumulate_numpy(deal, strategy, np.ones(n), classes, part, both, None)
    apart[:, 0] += now
    apart[:, 1] += both - now


def _padded(deal: Deal, strategy: list[FloatArray]) -> FloatArray:
    """``strategy`` as one array, every position's histories padded to the most."""
    padded = np.zeros((deal.players, max(len(s) for s in strategy), len(deal.level)))
    for p, s in enumerate(strategy):
        padded[p, : len(s)] = s
    return padded


def _compiled() -> Callable[..., None] | None:
    """The compiled sums, or None without numba (or with ``GUTS_KERNELS=numpy``)."""
    if os.environ.get("GUTS_KERNELS", "").lower() == "numpy":
        return None
    try:
        from guts.solve.compiled_sampled import sampled_sums
    except ImportError:
        return None
    return sampled_sums


def _accumulate_numpy(
    deal: Deal,
    strategy: list[FloatArray],
    carry: FloatArray,
    classes: IntArray,
    half: IntArray,
    sums: FloatArray,
    only: int | None,
) -> None:
    """:func:`_accumulate`'s sums in numpy, leaf by leaf over every deal at once."""
    size = len(deal.level)
    slot = half[:, None] * size + classes
    for p, row, action, value in _leaf_values(deal, strategy, carry, classes, only):
        found = np.bincount(slot[:, p], weights=value, minlength=len(sums) * size)
        sums[:, p, row, action] += found.reshape(len(sums), size)


def _leaf_values(
    deal: Deal,
    strategy: list[FloatArray],
    carry: FloatArray,
    classes: IntArray,
    only: int | None,
) -> Iterator[tuple[int, int, int, FloatArray]]:
    """For every leaf and position (or only ``only``): (position, its history, its
    action, its value in each deal, the others' chances of declaring so included)."""
    n = deal.players
    level = deal.level[classes]  # (deals, n)
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
            yield p, deal.history(p, ins), ins >> p & 1, others * gain


def _upper(
    deal: Deal, strategy: list[FloatArray], sums: FloatArray, counts: FloatArray, deals: int
) -> tuple[float, FloatArray]:
    """The upper estimate (the best response on the pooled deals less the strategy) and
    each position's sampled value."""
    n = deal.players
    both = counts.sum(axis=0)  # (n, classes)
    upper = 0.0
    values = np.zeros(n)
    for p in range(n):
        rows = deal.histories(p)
        s = strategy[p]
        weight = both[p] / deals  # the class's share of deals
        pooled = sums[:, p, :rows].sum(axis=0) / np.maximum(both[p], 1.0)  # (rows, 2, classes)
        free = np.ones(rows, dtype=bool)
        free[0] = not deal.forced(p, 0)
        played = s * pooled[:, 1] + (1 - s) * pooled[:, 0]
        values[p] = float((played * weight).sum())
        gain = (np.maximum(pooled[:, 1], pooled[:, 0]) - played)[free]
        upper += float((gain * weight).sum())
    return upper, values


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
        self.seed = seed
        self._last: tuple[list[FloatArray], tuple[list[FloatArray], list[FloatArray]]] | None
        self._last = None
        rng, lookup = np.random.default_rng(seed), _Lookup(self)
        drawn = [lookup.deal(rng, min(DRAWN_AT_ONCE, deals - start), model.players)
                 for start in range(0, deals, DRAWN_AT_ONCE)]  # fmt: skip
        self.sample = np.concatenate(drawn) if drawn else np.zeros((0, model.players), np.int64)
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
        # per deal and class's chance, not per deal held: then a position's value (the
        # classes weighted by their chance) is the mean over the deals, as the game's,
        # and each information set's values are its mean's, scaled alike for both actions
        expected = len(self.sample) * self.prior
        kernel = _compiled()
        if position is None and kernel is not None:  # every position: now and next apart
            now, then = self._split(kernel, strategy)
            return [(now[p] + carry[p] * then[p]) / expected for p in range(n)]
        rows = max(self.histories(p) for p in range(n))
        sums = np.zeros((1, n, rows, 2, size))
        _accumulate(self, strategy, carry, self.sample, self._one_part, sums, None, position)
        return [sums[0, p, : self.histories(p)] / expected for p in range(n)]

    @cached_property
    def _one_part(self) -> IntArray:
        """Every deal's part when the deals are summed as one: 0."""
        return np.zeros(len(self.sample), dtype=np.int64)

    def _split(
        self, kernel: Callable[..., None], strategy: list[FloatArray]
    ) -> tuple[list[FloatArray], list[FloatArray]]:
        """Every position's sums of what is won now and of the next pot, apart (the values
        are linear in the continuation): the fixed point, the expected next pot and the
        whole-session values of one strategy all come from one pass over the deals."""
        if self._last is not None and all(
            np.array_equal(a, b) for a, b in zip(self._last[0], strategy, strict=True)
        ):
            return self._last[1]
        n = self.players
        sums = np.zeros((2, n, max(self.histories(p) for p in range(n)), 2, len(self.level)))
        kernel(
            _padded(self, strategy), self.sample, self._one_part, self.model.in_turn,
            len(self.leaves()) < 1 << n, self.level.astype(np.int64), np.zeros(n), self.packed,
            -1, sums, np.zeros((1, 1, 1, 1)), np.zeros(1), False, True, PRUNED,
        )  # fmt: skip
        found = (
            [sums[0, p, : self.histories(p)] for p in range(n)],
            [sums[1, p, : self.histories(p)] for p in range(n)],
        )
        self._last = ([s.copy() for s in strategy], found)
        return found

    def history_chances(self, weights: list[FloatArray]) -> FloatArray:
        """The chance of the earlier positions' declarations (``weights``: each one's
        chance per class, positions 0 to ``len(weights) - 1``) given each class of mine,
        on the sampled deals and scaled as the values are (per deal and chance of the
        class), so that a value divided by it is the sampled game's expectation."""
        position = len(weights)
        chance = np.ones(len(self.sample))
        for q, weight in enumerate(weights):
            chance *= weight[self.sample[:, q]]
        size = len(self.level)
        found = np.bincount(self.sample[:, position], weights=chance, minlength=size)
        return np.asarray(found / (len(self.sample) * self.prior), dtype=np.float64)
