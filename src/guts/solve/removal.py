"""Exact card removal for three players: every hand dealt from one pack.

With three players the chance of the other two hands' classes given one's own,
``joint[h, g, k] = P(g, k | h)``, is a tensor of ``classes ** 3`` numbers (91 ** 3, under a
million, for two-card Guts), and the counterfactual values are exact sums over it
(:class:`DeckDeal`), so the best response and NashConv are those of the real game.

The tensor is counted exactly, as the two-player case counts pairs
(:attr:`HandClasses.meeting`):

- hands grouped by ranks: ordered triples of disjoint hands with those rank multisets,
  rank by rank: ``C(n, a) C(n - a, b) C(n - a - b, c)`` with ``n`` the pack's cards of
  that rank and ``a``, ``b``, ``c`` the three hands' (:func:`rank_joint`);
- otherwise: every pair of disjoint hands beside one hand of each class (:func:`mask_joint`,
  for small packs and the tests; the two agree where both apply).

The ghost's hand (ghost Guts) is still drawn from the whole pack, independently of the
players' (its chances by the best hand's strength, as for two players).

>>> from guts.games.guts import preset
>>> classes = HandClasses.of(preset("two-card-guts").hand_ranking)
>>> joint = rank_joint(classes)
>>> joint.shape, round(float(joint[-1, -1, -1]), 12)   # aces, aces, aces: no such deal
((91, 91, 91), 0.0)
"""

from __future__ import annotations

from functools import cache, cached_property
from math import comb

import numpy as np
from numpy.typing import NDArray

from guts.solve.cfr import Deal
from guts.solve.hands import HandClasses
from guts.solve.model import Model

__all__ = [
    "MOST_JOINT_CLASSES",
    "DeckDeal",
    "deck_exact_fits",
    "joint_of",
    "mask_joint",
    "rank_joint",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

MOST_JOINT_CLASSES = 200
"""The most hand classes whose three-player tensor is built (200 ** 3 numbers: 64 MB)."""


def deck_exact_fits(model: Model, classes: HandClasses) -> bool:
    """Whether :class:`DeckDeal` solves ``model`` with exact card removal: three players,
    few enough classes for the tensor, and a settlement it sums (not a single loser, not
    the best hands paying when everyone is out, not the dealer's option)."""
    return (
        model.players == 3
        and len(classes.count) <= MOST_JOINT_CLASSES
        and classes.ranking is not None
        and not model.single_loser
        and not model.best_pays
        and not model.dealer_option
    )


def joint_of(classes: HandClasses) -> FloatArray:
    """``P(g, k | h)`` for three hands from one pack (see the module docstring)."""
    return _joint(classes)


@cache
def _joint(classes: HandClasses) -> FloatArray:
    counts = rank_joint(classes) if classes.grouping == "ranks" else mask_joint(classes)
    total = counts.sum(axis=(1, 2), keepdims=True)
    return np.asarray(counts / np.where(total > 0, total, 1.0), dtype=np.float64)


def _representatives(classes: HandClasses) -> IntArray:
    """One hand (card codes) of each class."""
    first = np.full(len(classes.count), -1, dtype=np.int64)
    order = np.arange(len(classes.of_hand))[::-1]
    first[classes.of_hand[order]] = order  # the last write is the first hand
    return np.asarray(classes.hands[first], dtype=np.int64)


def rank_joint(classes: HandClasses) -> FloatArray:
    """Ordered triples of disjoint hands (from the classes' pack) per triple of rank
    classes, counted rank by rank (hands grouped by ranks, no jokers)."""
    if classes.ranking is None or classes.grouping != "ranks":
        raise ValueError("rank_joint counts hands grouped by ranks")
    deck = np.unique(classes.hands)  # the pack the hands were dealt from
    if (deck >= 52).any():
        raise ValueError("rank_joint counts packs without jokers")
    return _rank_counts(_representatives(classes), deck)


def _rank_counts(reps: IntArray, deck: IntArray) -> FloatArray:
    ranks = np.unique(deck >> 2)
    have = [int((deck >> 2 == r).sum()) for r in ranks.tolist()]
    uses = np.stack([(reps >> 2 == r).sum(axis=1) for r in ranks.tolist()], axis=1)
    size = len(reps)
    ways = np.ones((size, size, size))
    for column, n in enumerate(have):
        a = uses[:, column][:, None, None]
        b = uses[:, column][None, :, None]
        c = uses[:, column][None, None, :]
        ways = ways * _choose(n, a) * _choose(n - a, b) * _choose(n - a - b, c)
    return ways


_BINOMIAL = np.array([[comb(n, k) for k in range(9)] for n in range(9)], dtype=np.float64)


def _choose(n: int | IntArray, k: IntArray) -> FloatArray:
    """``C(n, k)`` elementwise, 0 where ``k`` is out of ``0..n`` (``n`` at most 8)."""
    n_arr = np.asarray(n, dtype=np.int64)
    ok = (k >= 0) & (k <= n_arr)
    return np.where(ok, _BINOMIAL[np.clip(n_arr, 0, 8), np.clip(k, 0, 8)], 0.0)


def mask_joint(classes: HandClasses) -> FloatArray:
    """Ordered triples of disjoint hands per triple of classes, counted from one hand of
    each class and every pair of disjoint hands beside it (any grouping; the work is
    ``classes * hands ** 2``: small packs)."""
    hands = classes.hands
    masks = np.zeros(len(hands), dtype=np.uint64)
    for column in range(classes.size):
        masks |= np.left_shift(np.uint64(1), hands[:, column].astype(np.uint64))
    size = len(classes.count)
    onehot = np.zeros((len(hands), size))
    onehot[np.arange(len(hands)), classes.of_hand] = 1.0
    reps = _representatives(classes)
    rep_masks = np.zeros(size, dtype=np.uint64)
    for column in range(classes.size):
        rep_masks |= np.left_shift(np.uint64(1), reps[:, column].astype(np.uint64))
    counts = np.zeros((size, size, size))
    for h in range(size):
        free = np.flatnonzero((masks & rep_masks[h]) == 0)
        apart = ((masks[free][:, None] & masks[free][None, :]) == 0).astype(np.float64)
        side = onehot[free]
        counts[h] = side.T @ apart @ side * classes.count[h]
    return counts


class DeckDeal(Deal):
    """Three players' deal with every hand from one pack: the counterfactual values are
    sums over :func:`joint_of` (exact card removal), the payoffs those of :class:`Deal`'s
    tables by the strength levels of the hands in."""

    def __init__(self, model: Model, classes: HandClasses, joint: FloatArray | None = None) -> None:
        if not deck_exact_fits(model, classes) and joint is None:
            raise ValueError("exact card removal is summed for three players of plain rules")
        super().__init__(model, classes, exact=False)
        self.joint = joint_of(classes) if joint is None else joint
        self.cond = self.joint.sum(axis=2)  # P(one other's class | mine)

    @cached_property
    def three(self) -> tuple[FloatArray, FloatArray]:
        """Three in: my gain and the next pot per triple of classes (mine first), times
        the triple's chance (built on first use: a deal read from the cache and never
        valued, as a pot cap's chain of pots for a bot, does without its tensors)."""
        self._grids()
        return self.joint * self.three_gain, self.joint * self.three_next

    @cached_property
    def out_two(self) -> tuple[FloatArray, FloatArray]:
        """The other two in: my gain (out) and the next pot per triple, times its chance."""
        self._grids()
        return (
            self.joint * self.out_two_gain[None, :, :],
            self.joint * self.out_two_next[None, :, :],
        )

    def _grids(self) -> None:
        """Per pair and triple of classes (mine first): each role's gain and next pot
        (once)."""
        if hasattr(self, "three_gain"):
            return
        lv = self.level
        x, y = lv[:, None], lv[None, :]
        # two in, mine and another's: win, tie or lose (the other's level is the best)
        self.two_gain, self.two_next = (
            np.where(x > y, t[2][:, 0][x], np.where(x == y, t[2][:, 1][x], lose[2][:, 0][y]))
            for t, lose in ((self.top_gain, self.lose_gain), (self.top_next, self.lose_next))
        )
        # two in, neither mine: the payoff of a player out, by the best of the two
        best = np.maximum(x, y)
        ties = (x == y).astype(np.int64)
        self.out_two_gain = self.out_gain[2][best, ties]
        self.out_two_next = self.out_next[2][best, ties]
        # three in
        a, b, c = lv[:, None, None], lv[None, :, None], lv[None, None, :]
        top = np.maximum(b, c)
        at_top = (b == top).astype(np.int64) + (c == top)
        mine_wins = a > top
        mine_ties = a == top
        self.three_gain, self.three_next = (
            np.where(
                mine_wins,
                t[3][:, 0][a],
                np.where(mine_ties, t[3][a, np.minimum(at_top, 2)], lose[3][top, at_top - 1]),
            )
            for t, lose in ((self.top_gain, self.lose_gain), (self.top_next, self.lose_next))
        )

    def _compiled_fits(self) -> bool:
        return False

    def _values(
        self, strategy: list[FloatArray], carry: FloatArray, position: int | None
    ) -> list[FloatArray]:
        size = len(self.level)
        self._grids()
        cv = [np.zeros((self.histories(p), 2, size)) for p in range(3)]
        for ins in self.leaves():
            chances = [self._chance(strategy, j, ins) for j in range(3)]
            for p in range(3) if position is None else (position,):
                j, k = (q for q in range(3) if q != p)
                cv[p][self.history(p, ins), ins >> p & 1] += self._leaf_value(
                    ins, p, j, k, chances[j], chances[k], carry[p]
                )
        return cv

    def _leaf_value(
        self, ins: int, p: int, j: int, k: int, cj: FloatArray, ck: FloatArray, c: float
    ) -> FloatArray:
        """Position ``p``'s gain per class at leaf ``ins``, the others ``j`` and ``k``
        weighted by their chances of declaring as they do there."""
        joint = self.joint
        j_in, k_in = bool(ins >> j & 1), bool(ins >> k & 1)
        lv = self.level
        if ins >> p & 1:
            if j_in and k_in:
                gain, following = self.three
                return np.asarray((gain @ ck + c * (following @ ck)) @ cj)
            if j_in or k_in:
                inn, out = (cj, ck) if j_in else (ck, cj)
                pair = joint @ out  # [h, g]: the other in's class, the out one summed
                return np.asarray(((self.two_gain + c * self.two_next) * pair) @ inn)
            alone = (self.top_gain[1][:, 0] + c * self.top_next[1][:, 0])[lv]
            return np.asarray(alone * ((joint @ ck) @ cj))
        if j_in and k_in:
            gain, following = self.out_two
            return np.asarray((gain @ ck + c * (following @ ck)) @ cj)
        if j_in or k_in:
            inn, out = (cj, ck) if j_in else (ck, cj)
            gain = (self.out_gain[1][:, 0] + c * self.out_next[1][:, 0])[lv]
            return np.asarray((joint @ out) @ (inn * gain))
        nobody = float(self.out_gain[0][0, 0] + c * self.out_next[0][0, 0])
        return np.asarray(nobody * ((joint @ ck) @ cj))

    def history_chances(self, weights: list[FloatArray]) -> FloatArray:
        """The chance of the earlier positions' declarations (``weights``: each one's
        chance per class), given each class of mine."""
        if not weights:
            return np.ones(len(self.level))
        if len(weights) == 1:
            return np.asarray(self.cond @ weights[0], dtype=np.float64)
        return np.asarray(self.joint @ weights[1] @ weights[0], dtype=np.float64)
