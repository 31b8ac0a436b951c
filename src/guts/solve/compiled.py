"""The compiled counterfactual values of a deal with independent hands (three or more
players): the numpy path of :meth:`guts.solve.cfr.Deal.counterfactual`, fused into one loop
over the leaves (the sets of players in).

Optional: this module needs numba (``pip install 'guts[solve]'``) and is imported only when
a deal is solved (never by ``import guts``); ``GUTS_KERNELS=numpy`` keeps to numpy. The
tests hold the two paths equal. Compiled on first use and cached on disk by numba.

Arrays: ``strategy[p, history, h]`` (histories padded to the most any position has),
``tables[k, count, level, w - 1]`` for k in (top gain, top next, loser gain, loser next,
out gain, out next) as :class:`guts.solve.cfr.Deal` builds them, padded to ``players``
columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = ["counterfactual"]

Function = TypeVar("Function", bound=Callable[..., Any])
_compile = cast(Callable[[Function], Function], numba.njit(cache=True, nogil=True))

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@_compile
def _best_counts(dists: FloatArray, rows: IntArray, poly: FloatArray) -> int:
    """Fill ``poly[b, w]`` (as the numpy path's ``_best_counts``) for the players ``rows``
    of ``dists``; return the number of players."""
    levels = dists.shape[1]
    poly[:, :] = 0.0
    poly[:, 0] = 1.0
    size = 0
    for j in rows:
        below = 0.0
        for b in range(levels):
            at = dists[j, b]
            for w in range(size + 1, 0, -1):
                poly[b, w] = poly[b, w] * below + poly[b, w - 1] * at
            poly[b, 0] *= below
            below += at
        size += 1
    return size


@_compile
def _tails(dists: FloatArray, tails: FloatArray) -> None:
    """``tails[j, s]``: the weight of player j's hands at level s or above."""
    players, levels = dists.shape
    for j in range(players):
        above = 0.0
        for s in range(levels - 1, -1, -1):
            above += dists[j, s]
            tails[j, s] = above


@_compile
def _rest(values: FloatArray, rows: IntArray, skip: int, s: int) -> float:
    """The product of ``values[k, s]`` over ``rows`` but ``skip``."""
    product = 1.0
    for k in rows:
        if k != skip:
            product *= values[k, s]
    return product


@_compile
def _single_in(
    dists: FloatArray,
    tails: FloatArray,
    mass: FloatArray,
    others: IntArray,
    poly: FloatArray,
    carry: float,
    single: FloatArray,
    value: FloatArray,
) -> None:
    """Single loser: ``value[r]``, my gain in with ``others`` at my level r (as the numpy
    path's ``_single_in``)."""
    a0, a1, fee, skip, stake = single[1], single[2], single[3], single[4], single[5]
    levels = dists.shape[1]
    n = _best_counts(dists, others, poly)
    total = 1.0
    for j in others:
        total *= mass[j]
    below = np.zeros(len(others))
    for r in range(levels):
        share = 0.0
        for t in range(n + 1):
            share += poly[r, t] / (t + 1)
        every_tail = _rest(tails, others, -1, r)
        all_here = _rest(dists, others, -1, r)
        pays = every_tail - all_here
        others_pay = 0.0
        for i in range(len(others)):
            j = others[i]
            rest_tail = _rest(tails, others, j, r)
            rest_here = _rest(dists, others, j, r)
            others_pay += below[i] + dists[j, r] * (rest_tail - rest_here)
            below[i] += dists[j, r] * rest_tail
        goes_on = total - all_here
        next_pot = a0 * goes_on + a1 * (pays + others_pay)
        value[r] = share - stake * pays + carry * next_pot - fee * goes_on + fee * skip * pays


@_compile
def _single_out(
    dists: FloatArray, tails: FloatArray, mass: FloatArray, members: IntArray, carry: float,
    single: FloatArray,
) -> float:  # fmt: skip
    """Single loser: my gain out while ``members`` (two or more) are in."""
    a0, a1, fee = single[1], single[2], single[3]
    levels = dists.shape[1]
    total = 1.0
    for j in members:
        total *= mass[j]
    tied = 0.0
    payers = 0.0
    for s in range(levels):
        tied += _rest(dists, members, -1, s)
        for j in members:
            payers += dists[j, s] * (_rest(tails, members, j, s) - _rest(dists, members, j, s))
    goes_on = total - tied
    gain: float = carry * (a0 * goes_on + a1 * payers) - fee * goes_on
    return gain


@_compile
def _all_out(
    dists: FloatArray, others: IntArray, poly: FloatArray, carry: float,
    everyone: FloatArray, value: FloatArray,
) -> None:  # fmt: skip
    """Nobody in, the best hands pay: ``value[r]``, my gain at level r (as the numpy
    path's ``Deal._all_out_value``)."""
    levels = dists.shape[1]
    n = _best_counts(dists, others, poly)
    above = 0.0
    for r in range(levels - 1, -1, -1):
        total = poly[r, 0] * (everyone[0, 1] + carry * everyone[2, 1])
        beaten = 0.0
        for w in range(1, n + 1):
            total += poly[r, w] * (everyone[0, w + 1] + carry * everyone[2, w + 1])
            beaten += poly[r, w] * (everyone[1, w] + carry * everyone[2, w])
        value[r] = total + above
        above += beaten


@_compile
def counterfactual(
    strategy: FloatArray,
    leaves: IntArray,
    rows: IntArray,
    before: IntArray,
    level: IntArray,
    prior: FloatArray,
    levels: int,
    carry: FloatArray,
    tables: FloatArray,
    single: FloatArray,
    everyone: FloatArray,
) -> FloatArray:
    """``cv[p, history, action, h]``: as :meth:`Deal.counterfactual` for independent hands;
    ``leaves[k]``: leaf k as the set of players in (bits below ``players``; higher bits
    only tell leaves apart), ``rows[k, j]``: player j's strategy row on the way to it, and
    ``before[k, j]``: a row where j went out earlier on that way (-1: none);
    ``single``: (single loser 1 or 0, A0, A1, fee, skip, stake) as ``Deal._single_terms``;
    ``everyone[:, k]``: when nobody is in and the best hands pay (empty when they do not),
    a payer's gain, the others' and the next pot with ``k`` payers."""
    players, histories, hands = strategy.shape
    cv = np.zeros((players, histories, 2, hands))
    dists = np.zeros((players, levels))
    mass = np.zeros(players)
    poly = np.zeros((levels, players + 1))
    value = np.zeros(levels)
    history = np.zeros(players, dtype=np.int64)
    tails = np.zeros((players, levels))
    for k in range(len(leaves)):
        ins = leaves[k] & ((1 << players) - 1)
        dists[:, :] = 0.0
        count = 0
        for j in range(players):
            history[j] = rows[k, j]
            is_in = (ins >> j) & 1
            count += is_in
            earlier = before[k, j]
            for h in range(hands):
                p_in = strategy[j, history[j], h]
                chance = p_in if is_in else 1.0 - p_in
                if earlier >= 0:
                    chance *= 1.0 - strategy[j, earlier, h]
                dists[j, level[h]] += prior[h] * chance
            mass[j] = dists[j].sum()
        members = np.array([j for j in range(players) if (ins >> j) & 1], dtype=np.int64)
        out_base = np.zeros(players)
        single_here = single[0] > 0 and count >= 2
        if single_here:
            _tails(dists, tails)
            for p in range(players):
                out_base[p] = _single_out(dists, tails, mass, members, carry[p], single)
        elif count == 0:
            for p in range(players):
                out_base[p] = tables[4, 0, 0, 0] + carry[p] * tables[5, 0, 0, 0]
        else:
            _best_counts(dists, members, poly)
            for p in range(players):
                total = 0.0
                for b in range(levels):
                    for w in range(1, count + 1):
                        gain = tables[4, count, b, w - 1] + carry[p] * tables[5, count, b, w - 1]
                        total += poly[b, w] * gain
                out_base[p] = total
        for p in range(players):
            if count == 0 and everyone.shape[1]:  # the best hands pay (Henry, wimp)
                others = np.array([j for j in range(players) if j != p], dtype=np.int64)
                _all_out(dists, others, poly, carry[p], everyone, value)
                for h in range(hands):
                    cv[p, history[p], 0, h] += value[level[h]]
                continue
            outs = 1.0
            for j in range(players):
                if j != p and not (ins >> j) & 1:
                    outs *= mass[j]
            if not (ins >> p) & 1:
                for h in range(hands):
                    cv[p, history[p], 0, h] += out_base[p] * outs
                continue
            others = members[members != p]
            if single_here:
                _single_in(dists, tails, mass, others, poly, carry[p], single, value)
                for h in range(hands):
                    cv[p, history[p], 1, h] += value[level[h]] * outs
                continue
            n = _best_counts(dists, others, poly)
            c = carry[p]
            above = 0.0
            for r in range(levels - 1, -1, -1):
                top = 0.0
                for t in range(n + 1):
                    top += poly[r, t] * (tables[0, count, r, t] + c * tables[1, count, r, t])
                value[r] = (top + above) * outs
                for w in range(1, n + 1):
                    lose = tables[2, count, r, w - 1] + c * tables[3, count, r, w - 1]
                    above += poly[r, w] * lose
            for h in range(hands):
                cv[p, history[p], 1, h] += value[level[h]]
    return cv
