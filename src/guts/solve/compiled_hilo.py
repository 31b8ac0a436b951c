"""The compiled counterfactual values of a Hi-Lo deal for three or more players: the
numpy path of :class:`guts.solve.hilo_many.HiLoManyDeal` fused into one loop over the
leaves (every player's declaration), term for term.

Optional, as :mod:`guts.solve.compiled`: needs numba, imported only when a deal is
solved, ``GUTS_KERNELS=numpy`` keeps to numpy, and the tests hold the two paths equal.

Arrays: ``dists[p, history, way, level]`` each position's chance of each way per strength
level (its strategy weighted by the chance of the hands; histories padded);
``leaves[leaf, p]`` and ``rows[leaf, p]`` each position's way and history at a leaf;
``kinds[way]`` 0 high, 1 low, 2 both, 3 out; the result ``[p, history, way, level]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from guts.solve.compiled import _best_counts

__all__ = ["hi_lo_counterfactual"]

Function = TypeVar("Function", bound=Callable[..., Any])
_compile = cast(Callable[[Function], Function], numba.njit(cache=True, nogil=True))

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# rows of the work space
_AT, _LOSERS, _SHORT, _INV = 0, 1, 2, 3  # the side without the player, high orientation
_L_AT, _L_LOSERS, _L_SHORT, _L_INV = 4, 5, 6, 7  # the low side, indexed by strength
_BETA, _VALUE, _A, _B, _C = 8, 9, 10, 11, 12
_ROWS = 13


@_compile
def _side(
    dists: FloatArray, members: IntArray, both: int, poly: FloatArray, work: FloatArray,
    first: int, flip: bool,
) -> tuple[float, float]:  # fmt: skip
    """Fill ``work[first : first + 4]`` with a side's at-most, losers, short and inverse
    terms (``flip``: ``dists`` are reversed strengths, and the terms are written back in
    the strength order); return its mass and all its losers."""
    levels = dists.shape[1]
    k = _best_counts(dists, members, poly)
    losers = 0.0
    for b in range(levels):
        at = 0.0
        lose = 0.0
        short = 0.0
        inverse = 0.0
        for w in range(k + 1):
            at += poly[b, w]
            short += poly[b, w] * (k - w)
            if w > 0:
                lose += poly[b, w] * (k - w)
            if both > 0:
                inverse += poly[b, w] / (both + w)
        losers += lose
        c = levels - 1 - b if flip else b
        work[first, c] = at
        work[first + 1, c] = losers
        work[first + 2, c] = short
        work[first + 3, c] = inverse
    mass = work[first, 0] if flip else work[first, levels - 1]
    return mass, losers


@_compile
def _beta(dists: FloatArray, members: IntArray, work: FloatArray) -> float:
    """``work[_BETA]``: the chance that every player of ``members`` holds each level;
    returns their mass."""
    levels = dists.shape[1]
    mass = 1.0
    for c in range(levels):
        work[_BETA, c] = 1.0
    for j in members:
        total = 0.0
        for c in range(levels):
            work[_BETA, c] *= dists[j, c]
            total += dists[j, c]
        mass *= total
    return mass


@_compile
def _failed(work: FloatArray, c: int, paying: float) -> float:
    """The next pot when the both-ways players fail, on high at most ``c`` and low at
    least ``c``."""
    h_at, l_at = work[_AT, c], work[_L_AT, c]
    return float(paying * h_at * l_at + work[_LOSERS, c] * l_at + h_at * work[_L_LOSERS, c])


@_compile
def _out(
    dists: FloatArray, rdists: FloatArray, high: IntArray, low: IntArray, both: IntArray,
    carry: float, dropped: float, fee: float, poly: FloatArray, work: FloatArray,
) -> float:  # fmt: skip
    """A player out (as ``HiLoManyDeal._out``, less the dropouts' fee it pays)."""
    nb = len(both)
    mass_h, all_h = _side(dists, high, nb, poly, work, _AT, False)
    mass_l, all_l = _side(rdists, low, nb, poly, work, _L_AT, True)
    mass_b = _beta(dists, both, work)
    total = mass_h * mass_l * mass_b
    paying = nb + (1.0 if len(high) == 0 and len(low) == 0 else 0.0)
    failed_all = paying * mass_h * mass_l + all_h * mass_l + mass_h * all_l
    next_pot = mass_b * failed_all + dropped * total
    if nb:
        for c in range(dists.shape[1]):
            won = work[_SHORT, c] * work[_L_AT, c] + work[_AT, c] * work[_L_SHORT, c]
            next_pot += work[_BETA, c] * (won - _failed(work, c, paying))
    return float(carry * next_pot - fee * total)


@_compile
def _both(
    dists: FloatArray, rdists: FloatArray, high: IntArray, low: IntArray, both: IntArray,
    carry: float, dropped: float, poly: FloatArray, work: FloatArray,
) -> None:  # fmt: skip
    """A player going both ways: ``work[_VALUE]`` per strength of its hand."""
    nb = len(both) + 1
    mass_h, all_h = _side(dists, high, nb, poly, work, _AT, False)
    mass_l, all_l = _side(rdists, low, nb, poly, work, _L_AT, True)
    mass_b = _beta(dists, both, work)
    total = mass_h * mass_l * mass_b
    paying = nb + (1.0 if len(high) == 0 and len(low) == 0 else 0.0)
    failed_all = paying * mass_h * mass_l + all_h * mass_l + mass_h * all_l
    next_pot = mass_b * failed_all + dropped * total
    for x in range(dists.shape[1]):
        h_at, l_at = work[_AT, x], work[_L_AT, x]
        gain = 0.5 * (work[_INV, x] * l_at + h_at * work[_L_INV, x]) + h_at * l_at
        won = work[_SHORT, x] * l_at + h_at * work[_L_SHORT, x] - _failed(work, x, paying)
        beta = work[_BETA, x]
        work[_VALUE, x] = -total + beta * gain + carry * (next_pot + beta * won)


@_compile
def _after(work: FloatArray, source: int, target: int) -> None:
    """``work[target, x]``: the sum of ``work[source, c]`` for ``c > x``."""
    total = 0.0
    for x in range(work.shape[1] - 1, -1, -1):
        work[target, x] = total
        total += work[source, x]


@_compile
def _high(
    dists: FloatArray, rdists: FloatArray, high: IntArray, low: IntArray, both: IntArray,
    carry: float, dropped: float, poly: FloatArray, work: FloatArray,
) -> None:  # fmt: skip
    """A player going high: ``work[_VALUE]`` per strength of its hand (``high``: the
    other high hands; as ``HiLoManyDeal._high``)."""
    levels = dists.shape[1]
    nb = len(both)
    k = _best_counts(dists, high, poly)
    mass_l, all_l = _side(rdists, low, nb, poly[:, k + 1 :], work, _L_AT, True)
    mass_b = _beta(dists, both, work)
    share = 0.5 if len(low) else 1.0
    mass_h = 0.0
    for w in range(k + 1):
        mass_h += poly[levels - 1, w]
    passed = 0.0
    passed_all = 0.0
    for b in range(levels):
        for w in range(1, k + 1):
            passed_all += poly[b, w] * (k + 1.0 - w)
    total_low = 0.0  # the sum of beta * low at c over c > x, built from the top down
    for x in range(levels):
        work[_A, x] = 0.0
    # the sums over c > x of the low-side terms, from the top down
    for x in range(levels - 1, -1, -1):
        work[_B, x] = total_low
        total_low += work[_BETA, x] * work[_L_AT, x] if nb else 0.0
    for x in range(levels):
        win = 0.0
        shared = 0.0
        at_most = 0.0
        tops = 0.0
        weighted = 0.0
        for w in range(k + 1):
            win += poly[x, w] * share / (w + 1.0)
            shared += poly[x, w] * 0.5 / (nb + w + 1.0)
            at_most += poly[x, w]
            tops += poly[x, w] * (k - w)
            weighted += poly[x, w] * w
            if w > 0:
                passed += poly[x, w] * (k + 1.0 - w)
        losers = passed_all - passed + tops
        gain = (win - (mass_h - at_most)) * mass_l * mass_b
        next_pot = (losers * mass_l + mass_h * all_l + nb * mass_h * mass_l) * mass_b
        next_pot += dropped * mass_h * mass_l * mass_b
        work[_VALUE, x] = gain + carry * next_pot
        if nb:
            low_at = work[_BETA, x] * work[_L_AT, x]
            l_terms = work[_L_SHORT, x] - work[_L_LOSERS, x] - nb * work[_L_AT, x]
            work[_C, x] = work[_BETA, x] * at_most * l_terms  # low terms at c = x
            work[_A, x] = low_at * (at_most * (k + 1.0) - weighted - passed)  # above
            extra = low_at * (shared - win) - (win + at_most) * work[_B, x]
            work[_VALUE, x] += extra + carry * (work[_C, x] + (passed - tops) * work[_B, x])
    if nb:
        _after(work, _C, _INV)  # _INV is free here: the sums of the low terms above x
        _after(work, _A, _SHORT)
        for x in range(levels):
            work[_VALUE, x] += carry * (work[_INV, x] + work[_SHORT, x])


@_compile
def hi_lo_counterfactual(
    dists: FloatArray, leaves: IntArray, rows: IntArray, kinds: IntArray, carry: FloatArray,
    chicken: float, fee: float, targets: IntArray,
) -> FloatArray:  # fmt: skip
    """Every target's counterfactual values per (history, way, strength level)."""
    players, histories, ways, levels = dists.shape
    found = np.zeros((players, histories, ways, levels))
    here = np.zeros((players, levels))
    flipped = np.zeros((players, levels))
    poly = np.zeros((levels, 2 * players + 2))
    work = np.zeros((_ROWS, levels))
    mass = np.zeros(players)
    for leaf in range(leaves.shape[0]):
        n_in = 0
        for j in range(players):
            total = 0.0
            for c in range(levels):
                x = dists[j, rows[leaf, j], leaves[leaf, j], c]
                here[j, c] = x
                flipped[j, levels - 1 - c] = x
                total += x
            mass[j] = total
            if kinds[leaves[leaf, j]] != 3:
                n_in += 1
        for p in targets:
            weight = 1.0
            for j in range(players):
                if j != p and kinds[leaves[leaf, j]] == 3:
                    weight *= mass[j]
            kind = kinds[leaves[leaf, p]]
            target = found[p, rows[leaf, p], leaves[leaf, p]]
            if n_in == 0:
                value = weight * (carry[p] * (1.0 + players * chicken) - chicken)
                for c in range(levels):
                    target[c] += value
                continue
            if n_in == 1:
                if kind != 3:
                    for c in range(levels):
                        target[c] += weight
                continue
            groups = [np.zeros(0, dtype=np.int64) for _ in range(3)]
            for g in range(3):
                count = 0
                for j in range(players):
                    if j != p and kinds[leaves[leaf, j]] == g:
                        count += 1
                members = np.zeros(count, dtype=np.int64)
                count = 0
                for j in range(players):
                    if j != p and kinds[leaves[leaf, j]] == g:
                        members[count] = j
                        count += 1
                groups[g] = members
            high, low, both = groups[0], groups[1], groups[2]
            dropped = (players - n_in) * fee
            if kind == 3:
                value = _out(here, flipped, high, low, both, carry[p], dropped, fee, poly, work)
                for c in range(levels):
                    target[c] += weight * value
                continue
            if kind == 2:
                _both(here, flipped, high, low, both, carry[p], dropped, poly, work)
            elif kind == 0:
                _high(here, flipped, high, low, both, carry[p], dropped, poly, work)
            else:  # low: high with the strengths reversed
                _high(flipped, here, low, high, both, carry[p], dropped, poly, work)
            for c in range(levels):
                x = c if kind != 1 else levels - 1 - c
                target[c] += weight * work[_VALUE, x]
    return found
