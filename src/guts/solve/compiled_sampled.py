"""The compiled sums over sampled real deals (:mod:`guts.solve.sampled`): for every deal
and every leaf (set of players in), each position's payoff weighted by the chance of the
others' declarations there, added into its information set's value.

Optional, as :mod:`guts.solve.compiled`: it needs numba, is imported only when a sampled
deal is solved or measured, and ``GUTS_KERNELS=numpy`` keeps to the numpy path (the tests
hold the two equal). The leaves of a deal are walked so that each costs a few steps (what
is known of the earlier positions is kept per prefix): one position's values cost about
``2 * leaves`` steps a deal, less where the strategies are pure (a prefix whose values are
all zero is skipped whole).

Arrays: ``strategy[p, history, h]`` (histories padded), ``sample[d, p]`` the class of
position p's hand in deal d, ``tables[k, count, level, w - 1]`` as
:attr:`guts.solve.cfr.Deal.packed`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = ["sampled_sums"]

Function = TypeVar("Function", bound=Callable[..., Any])
_compile = cast(Callable[[Function], Function], numba.njit(cache=True, nogil=True))

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@_compile
def sampled_sums(
    strategy: FloatArray,
    sample: IntArray,
    half: IntArray,
    in_turn: bool,
    skip_nobody: bool,
    level: IntArray,
    carry: FloatArray,
    tables: FloatArray,
    only: int,
    sums: FloatArray,
    weights: FloatArray,
    per_deal: FloatArray,
    with_weights: bool,
    split: bool,
    prune: bool,
) -> None:
    """Add into ``sums[half, p, row, action, class]`` every position's value (or only
    position ``only``'s, when it is 0 or more) at every leaf of every deal of ``sample``;
    ``in_turn``: a position's row is the earlier positions' declarations (else 0);
    ``skip_nobody``: no leaf where nobody is in (the dealer is in then). With
    ``with_weights``, also add each value times ``weights[p, row, action, class]`` into
    ``per_deal[d]`` (one number per deal, for a standard error over the deals). With
    ``split``, ``sums[2 * half]`` gets what is won now and ``sums[2 * half + 1]`` the next
    pot (the values at any continuation are then ``now + carry[p] * next``).

    The leaves are walked in binary order with the first position as the highest bit, so
    from one leaf to the next only the later positions change: what is known of the
    earlier ones (the chance of their declarations, the best level in, how many share it,
    how many are in, the history) is kept per prefix and only the changed part redone.
    With ``prune``, a prefix whose values are all exactly zero is skipped with every leaf
    below it: for ``only``, where the other positions' chances so far multiply to zero;
    for every position, where two chances so far are zero (each position's value leaves
    out only its own chance). What is skipped would add zeros, so the sums are the full
    walk's to the bit: a pure strategy (most hands, once CFR has settled them) costs one
    leaf, not two, at each of its declarations."""
    deals, players = sample.shape
    chance = np.zeros(players)
    product = np.ones(players + 1)  # the chances of the prefix (but ``only``'s)
    zeros = np.zeros(players + 1, dtype=np.int64)  # how many of the prefix's are zero
    best = np.full(players + 1, -1, dtype=np.int64)
    ties = np.zeros(players + 1, dtype=np.int64)
    count = np.zeros(players + 1, dtype=np.int64)
    history = np.zeros(players + 1, dtype=np.int64)
    before = np.ones(players + 1)
    after = np.ones(players + 1)
    lv = np.zeros(players, dtype=np.int64)
    cls = np.zeros(players, dtype=np.int64)
    nobody = tables[4, 0, 0, 0], tables[5, 0, 0, 0]
    leaves = 1 << players
    for d in range(deals):
        part = half[d]
        for j in range(players):
            cls[j] = sample[d, j]
            lv[j] = level[cls[j]]
        t, start = 0, 0
        while t < leaves:
            dead = -1
            for j in range(start, players):
                bit = (t >> (players - 1 - j)) & 1
                row = history[j] if in_turn else 0
                p_in = strategy[j, row, cls[j]]
                chance[j] = p_in if bit else 1.0 - p_in
                product[j + 1] = product[j] if j == only else product[j] * chance[j]
                zeros[j + 1] = zeros[j] + (1 if chance[j] == 0.0 else 0)
                history[j + 1] = history[j] | (bit << j)
                best[j + 1], ties[j + 1], count[j + 1] = best[j], ties[j], count[j]
                if bit:
                    count[j + 1] += 1
                    if lv[j] > best[j]:
                        best[j + 1], ties[j + 1] = lv[j], 0
                    elif lv[j] == best[j]:
                        ties[j + 1] += 1
                if prune and ((product[j + 1] == 0.0) if only >= 0 else (zeros[j + 1] >= 2)):
                    dead = j
                    break
            following = t + 1
            if dead >= 0:  # every leaf of this prefix adds zeros: the next prefix
                following = (t | ((1 << (players - 1 - dead)) - 1)) + 1
            changed, top = t ^ following, 0
            while changed > 1:
                changed >>= 1
                top += 1
            t, start = following, players - 1 - top
            if dead >= 0:
                continue
            ins = history[players]
            if skip_nobody and ins == 0:
                continue
            n_in, top_level, shared = count[players], best[players], ties[players]
            if only >= 0:
                first, last = only, only + 1
            else:
                first, last = 0, players
                for j in range(players):
                    before[j + 1] = before[j] * chance[j]
                    after[players - 1 - j] = after[players - j] * chance[players - 1 - j]
            for p in range(first, last):
                others = product[players] if only >= 0 else before[p] * after[p + 1]
                action = (ins >> p) & 1
                k = 4  # out, while others are in
                if action:
                    k = 0 if lv[p] == top_level else 2  # the best hand's role or a loser's
                if action or n_in:
                    now = tables[k, n_in, top_level, shared]
                    then = tables[k + 1, n_in, top_level, shared]
                else:
                    now, then = nobody
                row = history[p] if in_turn else 0
                if split:  # what is won now and the next pot, apart
                    sums[2 * part, p, row, action, cls[p]] += others * now
                    sums[2 * part + 1, p, row, action, cls[p]] += others * then
                    continue
                value = others * (now + carry[p] * then)
                sums[part, p, row, action, cls[p]] += value
                if with_weights:
                    per_deal[d] += value * weights[p, row, action, cls[p]]
