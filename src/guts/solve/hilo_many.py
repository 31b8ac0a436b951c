"""Hi-Lo Guts for three to eight players: exact sums over the declarations, hands
independent.

A deal's leaves are the declarations of every player (``high``, ``low``, ``both``,
``out``: ``ways ** players`` of them). At a leaf the players going high, low and both
are different players, so with hands drawn independently (card removal between players
ignored, as the in/out solver does for three or more;
:func:`guts.solve.check.hi_lo_dealt_values` measures the error against real deals) the
high side, the low side and the both-ways players are independent. The settlement
(:func:`guts.solve.hilo.settle`, the engine's):

- the both-ways players *succeed* together or fail together: they succeed when all of
  them hold one strength ``c``, every high hand is at most ``c`` and every low hand at
  least ``c``; then the high half is shared by the both-ways players and the high hands
  at ``c``, the low half likewise, and the other high and low hands match;
- otherwise (or with nobody going both ways) every both-ways player matches, and the
  high and the low hands play their own contests, a half each (the whole pot when one
  side is empty; nobody left: the pot stays).

Each outcome's payoff is a sum of one term of the high side and one of the low side, so
a player's counterfactual value is, per strength ``x`` of its own hand, the value as if
the both-ways players failed plus, for each ``c``, the chance that they all hold ``c``
times the difference success makes, restricted to the high side at most ``c`` and the
low side at least ``c``. Every term comes from ``poly[b, w]`` of each side (the chance
that all its hands are at most ``b`` and exactly ``w`` at ``b``, as in
:mod:`guts.solve.cfr`), and the sums over ``c`` are cumulative sums: the work per leaf
and player is linear in the strength levels. A low hand is a high hand of the reversed
ranking, so the low side is the high side's computation on reversed strengths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product

import numpy as np
from numpy.typing import NDArray

from guts.solve.cfr import _best_counts
from guts.solve.hands import HandClasses
from guts.solve.hilo import HiLoModel

__all__ = ["HiLoManyDeal"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class _Side:
    """One side's hands (the high or the low side, in high orientation: best is the
    highest level), excluding the player whose value is taken. ``at_most[c]``: all at
    most ``c``; ``losers[c]``: the losers' count, on ``at_most[c]``; ``short[c]``: the
    count below ``c``, on ``at_most[c]`` (the losers when both-ways players win at
    ``c``); ``inverse[c]``: ``1 / (both + count at c)`` on ``at_most[c]``."""

    size: int
    mass: float
    all_losers: float
    at_most: FloatArray
    losers: FloatArray
    short: FloatArray
    inverse: FloatArray

    def reversed(self) -> _Side:
        """The low side's terms indexed by strength (``at_most`` becomes at least)."""
        flip = (self.at_most, self.losers, self.short, self.inverse)
        return _Side(self.size, self.mass, self.all_losers, *(x[::-1] for x in flip))


def _side(dists: Sequence[FloatArray], levels: int, both: int) -> _Side:
    poly = _best_counts(list(dists), levels)
    k = len(dists)
    w = np.arange(k + 1, dtype=np.float64)
    inverse = poly @ (1.0 / (both + w)) if both else np.zeros(levels)
    at_most = poly.sum(axis=1)
    losers = np.cumsum(poly[:, 1:] @ (k - w[1:]))
    return _Side(k, float(at_most[-1]), float(losers[-1]), at_most, losers, poly @ (k - w), inverse)


def _after(values: FloatArray) -> FloatArray:
    """``out[x] = sum of values[c] for c > x``."""
    return np.asarray(np.cumsum(values[::-1])[::-1] - values, dtype=np.float64)


class HiLoManyDeal:
    """One Hi-Lo deal for three or more players, hands independent: exact
    counterfactual values by leaf of declarations (see the module docstring).

    ``strategy[p][history, way, h]``: position ``p``'s chance of each way
    (``model.ways``) with class ``h``; in turn position ``p`` has ``ways ** p``
    histories (the earlier positions' declarations, position ``q``'s the ``q``-th digit
    in base ``ways``), simultaneously one."""

    exact = False

    def __init__(self, model: HiLoModel, classes: HandClasses) -> None:
        self.model, self.classes = model, classes
        self.players, self.ways = model.players, len(model.ways)
        self.prior = classes.prior
        self.level = classes.level
        self.levels = classes.levels
        self.onehot = np.zeros((len(self.level), self.levels))
        self.onehot[np.arange(len(self.level)), self.level] = 1.0
        self.kind = list(model.ways)
        self.leaves = list(product(range(self.ways), repeat=self.players))

    def histories(self, position: int) -> int:
        """How many public histories ``position`` may face."""
        return self.ways**position if self.model.in_turn else 1

    def history(self, position: int, leaf: Sequence[int]) -> int:
        """The history ``position`` faced on the way to ``leaf`` (the ways declared)."""
        if not self.model.in_turn:
            return 0
        return sum(leaf[q] * self.ways**q for q in range(position))

    def uniform(self) -> list[FloatArray]:
        """Every way equally likely."""
        size = len(self.prior)
        return [
            np.full((self.histories(p), self.ways, size), 1.0 / self.ways)
            for p in range(self.players)
        ]

    def counterfactual(
        self, strategy: list[FloatArray], values: FloatArray, only: int | None = None
    ) -> list[FloatArray]:
        """``cv[p][history, way, h]``: position ``p``'s expected gain with class ``h``
        (the next pot worth ``values`` of the position it moves to), weighted by the
        chance of the others' hands and declarations; with ``only``, that position's
        alone (the others' left at zero)."""
        carry = np.roll(values, 1)
        dists = [(s * self.prior) @ self.onehot for s in strategy]  # [history, way, level]
        targets = range(self.players) if only is None else (only,)
        kernel = _compiled()
        if kernel is not None:
            return self._compiled_values(kernel, dists, carry, targets)
        cv = [np.zeros_like(s) for s in strategy]
        for leaf in self.leaves:
            rows = [self.history(j, leaf) for j in range(self.players)]
            here = [dists[j][rows[j], leaf[j]] for j in range(self.players)]
            for p in targets:
                value = self._value(p, leaf, here, float(carry[p]))
                cv[p][rows[p], leaf[p]] += value[self.level] if value.ndim else value
        return cv

    @cached_property
    def _leaf_rows(self) -> tuple[IntArray, IntArray, IntArray]:
        """For the compiled kernel: each position's way and history at every leaf, and
        what each way is (0 high, 1 low, 2 both, 3 out)."""
        leaves = np.array(self.leaves, dtype=np.int64)
        rows = [[self.history(j, leaf) for j in range(self.players)] for leaf in self.leaves]
        kinds = [("high", "low", "both", "out").index(way) for way in self.kind]
        return leaves, np.array(rows, dtype=np.int64), np.array(kinds, dtype=np.int64)

    def _compiled_values(
        self,
        kernel: Callable[..., FloatArray],
        dists: list[FloatArray],
        carry: FloatArray,
        targets: Sequence[int],
    ) -> list[FloatArray]:
        padded = np.zeros((self.players, max(map(len, dists)), self.ways, self.levels))
        for p, d in enumerate(dists):
            padded[p, : len(d)] = d
        leaves, rows, kinds = self._leaf_rows
        m = self.model
        found = kernel(
            padded, leaves, rows, kinds, carry, m.chicken, m.dropout_fee,
            np.array(targets, dtype=np.int64),
        )  # fmt: skip
        return [found[p, : len(d)][..., self.level] for p, d in enumerate(dists)]

    def _value(
        self, p: int, leaf: Sequence[int], dists: list[FloatArray], carry: float
    ) -> FloatArray:
        """Position ``p``'s value at ``leaf``: per strength level of its hand if it is
        in, one number if out (the others weighted by their chance of this leaf)."""
        m, n = self.model, self.players
        ways = [self.kind[a] for a in leaf]
        ins = [j for j in range(n) if ways[j] != "out"]
        weight = float(np.prod([dists[j].sum() for j in range(n) if j != p and j not in ins]))
        if not ins:
            return np.asarray(weight * (carry * (1.0 + n * m.chicken) - m.chicken))
        if len(ins) == 1:
            alone = np.full(self.levels, weight) if ins == [p] else np.asarray(0.0)
            return np.asarray(alone)
        side = {way: [dists[j] for j in ins if ways[j] == way and j != p] for way in ways}
        high, low, both = (side.get(way, []) for way in ("high", "low", "both"))
        fee = m.dropout_fee
        dropped = (n - len(ins)) * fee
        if ways[p] == "out":
            value = np.asarray(
                self._out(high, low, both, carry, dropped)
                - fee * self._mass([dists[j] for j in ins])
            )
        elif ways[p] == "both":
            value = self._both(high, low, both, carry, dropped)
        elif ways[p] == "high":
            value = self._high(high, low, both, carry, dropped)
        else:  # low: high with the strengths reversed
            mirror, facing, either = ([d[::-1] for d in group] for group in (low, high, both))
            value = self._high(mirror, facing, either, carry, dropped)[::-1]
        return np.asarray(weight * value)

    @staticmethod
    def _mass(dists: Sequence[FloatArray]) -> float:
        return float(np.prod([d.sum() for d in dists]))

    def _sides(
        self, high: list[FloatArray], low: list[FloatArray], both: int
    ) -> tuple[_Side, _Side]:
        flipped = [d[::-1] for d in low]
        return _side(high, self.levels, both), _side(flipped, self.levels, both).reversed()

    @staticmethod
    def _failed_next(h: _Side, l_: _Side, both: int) -> FloatArray:
        """The next pot when the both-ways players fail (or there are none), on the high
        side at most ``c`` and the low side at least ``c``, per ``c``."""
        paying = both + (1.0 if h.size == 0 and l_.size == 0 else 0.0)  # nobody left: it stays
        return paying * h.at_most * l_.at_most + h.losers * l_.at_most + h.at_most * l_.losers

    @staticmethod
    def _failed_all(h: _Side, l_: _Side, both: int) -> float:
        """The next pot when the both-ways players fail (or there are none), every hand."""
        paying = both + (1.0 if h.size == 0 and l_.size == 0 else 0.0)
        return paying * h.mass * l_.mass + h.all_losers * l_.mass + h.mass * l_.all_losers

    def _out(
        self,
        high: list[FloatArray],
        low: list[FloatArray],
        both: list[FloatArray],
        carry: float,
        dropped: float,
    ) -> float:
        """A player out: what the next pot is worth to it."""
        nb = len(both)
        h, l_ = self._sides(high, low, nb)
        mass_b = self._mass(both)
        total = h.mass * l_.mass * mass_b
        failed = self._failed_next(h, l_, nb)
        next_pot = mass_b * self._failed_all(h, l_, nb) + dropped * total
        if nb:
            beta = np.prod(both, axis=0)
            won = h.short * l_.at_most + h.at_most * l_.short
            next_pot += float(beta @ (won - failed))
        return carry * next_pot

    def _both(
        self,
        high: list[FloatArray],
        low: list[FloatArray],
        both: list[FloatArray],
        carry: float,
        dropped: float,
    ) -> FloatArray:
        """A player going both ways, per strength ``x`` of its hand."""
        nb = len(both) + 1
        h, l_ = self._sides(high, low, nb)
        mass_b = self._mass(both)
        total = h.mass * l_.mass * mass_b
        failed = self._failed_next(h, l_, nb)
        gain = -total
        next_pot = mass_b * self._failed_all(h, l_, nb) + dropped * total
        beta = np.prod(both, axis=0) if both else np.ones(self.levels)
        won_gain = 0.5 * (h.inverse * l_.at_most + h.at_most * l_.inverse)
        won_next = h.short * l_.at_most + h.at_most * l_.short
        extra_gain = beta * (won_gain + h.at_most * l_.at_most)
        extra_next = beta * (won_next - failed)
        return np.asarray(gain + extra_gain + carry * (next_pot + extra_next))

    def _high(
        self,
        high: list[FloatArray],
        low: list[FloatArray],
        both: list[FloatArray],
        carry: float,
        dropped: float,
    ) -> FloatArray:
        """A player going high, per strength ``x`` of its hand (``high``: the other
        high hands)."""
        nb, levels = len(both), self.levels
        poly = _best_counts(high, levels)  # the other high hands: [b, w]
        k = len(high)
        w = np.arange(k + 1, dtype=np.float64)
        share = 0.5 if low else 1.0
        win = poly @ (share / (w + 1.0))  # alone or tied at the top of the high side
        at_most = poly.sum(axis=1)
        mass_h = float(at_most[-1])
        passed = np.cumsum(poly[:, 1:] @ (k + 1.0 - w[1:]))  # losers, the top above x
        tops = poly @ (k - w)  # losers, the top at x
        l_ = _side([d[::-1] for d in low], levels, nb).reversed()
        mass_b = self._mass(both)
        losers = passed[-1] - passed + tops  # the high side's, x in it
        gain = (win - (mass_h - at_most)) * l_.mass * mass_b
        next_pot = (losers * l_.mass + mass_h * l_.all_losers + nb * mass_h * l_.mass) * mass_b
        next_pot = next_pot + dropped * mass_h * l_.mass * mass_b
        if nb:
            beta = np.prod(both, axis=0)
            low_at = beta * l_.at_most
            # both-ways players win at c = x: x shares the high half with them
            shared = poly @ (0.5 / (nb + w + 1.0))
            gain = gain + low_at * (shared - win) - (win + at_most) * _after(low_at)
            low_terms = beta * at_most * (l_.short - l_.losers - nb * l_.at_most)
            above = low_at * (at_most * (k + 1.0) - poly @ w - passed)
            next_pot = next_pot + low_terms + _after(low_terms) + _after(above)
            next_pot = next_pot + (passed - tops) * _after(low_at)
        return np.asarray(gain + carry * next_pot)

    # -- values and the fixed point ------------------------------------------------------

    def values(
        self, strategy: list[FloatArray], cv: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]:
        """(each position's expected gain under ``strategy``, its best response's)."""
        n = self.players
        mine, best = np.zeros(n), np.zeros(n)
        for p in range(n):
            mine[p] = float(((strategy[p] * cv[p]).sum(axis=1) @ self.prior).sum())
            best[p] = float((cv[p].max(axis=1) @ self.prior).sum())
        return mine, best

    def growth(self, strategy: list[FloatArray]) -> float:
        """The expected next pot, in units of this one, when everyone plays ``strategy``."""
        n = self.players
        zero, one = np.zeros(n), np.ones(n)
        now = self.values(strategy, self.counterfactual(strategy, zero))[0]
        return float(self.values(strategy, self.counterfactual(strategy, one))[0][0] - now[0])

    def fixed_point(self, strategy: list[FloatArray]) -> FloatArray:
        """The continuation values ``v = (I - E[next] S)^-1 a`` (see ``docs/solve.md``)."""
        n = self.players
        now = self.values(strategy, self.counterfactual(strategy, np.zeros(n)))[0]
        shift = np.roll(np.eye(n), -1, axis=1)
        return np.asarray(
            np.linalg.solve(np.eye(n) - self.growth(strategy) * shift, now), dtype=np.float64
        )


def _compiled() -> Callable[..., FloatArray] | None:
    """The compiled kernel (:mod:`guts.solve.compiled_hilo`), or None without numba (or
    with ``GUTS_KERNELS=numpy``)."""
    import os

    if os.environ.get("GUTS_KERNELS", "").lower() == "numpy":
        return None
    try:
        from guts.solve.compiled_hilo import hi_lo_counterfactual
    except ImportError:
        return None
    return hi_lo_counterfactual
