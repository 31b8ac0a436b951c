"""Compiled high-hand kernels: the numpy kernels' lookups, fused into one loop per hand.

Optional: this module needs numba (``pip install 'guts[fast]'``) and is imported only when
a batch is ranked with compiled kernels (see :func:`guts.rankings.batch_high.compiled_kernels`).
Each kernel reads the very tables of :mod:`guts.rankings.batch_high` and returns what the
numpy path returns, clipping table indices as numpy's ``take(mode="clip")`` does, so that
hands with repeated cards (which batches do not check for) read no memory outside the
tables; the tests hold the two paths equal. Instead of raising inside compiled code, a
kernel returns the first row holding a code outside the pack (or -1), and the caller
raises.

This module imports only the word-layout constants of :mod:`guts.rankings.tables` and
:mod:`guts.rankings.word_sums`, never :mod:`guts.rankings.batch_high`, which imports it
lazily (so that ``import guts`` stays fast and ``GUTS_KERNELS=numpy`` never loads numba).

Kernels are compiled on first use and cached on disk by numba (``cache=True``), which
treats the module constants they read as compile-time constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from guts.rankings.tables import (
    FIVE_KEY_MASK,
    FLUSH_BIAS,
    FLUSH_TOPS,
    KEY_MASK,
    SUIT_BITS,
    SUIT_MASK,
    WB_SHIFT,
)
from guts.rankings.word_sums import OUTSIDE

__all__ = ["five_natural", "high_hands"]

Function = TypeVar("Function", bound=Callable[..., Any])
_compile = cast(Callable[[Function], Function], numba.njit(cache=True, nogil=True))


@_compile
def five_natural(
    hands: NDArray[np.uint8],
    pair: NDArray[np.int64],
    single: NDArray[np.int64],
    nonflush: NDArray[np.int64],
    flush: NDArray[np.int64],
    index_mask: int,
    out: NDArray[np.int64],
) -> int:
    """Five natural cards (the tables of ``five_card_sums``); -1 or a bad row."""
    last = len(nonflush) - 1
    last_flush = len(flush) - 1
    for row in range(hands.shape[0]):
        first = np.int64(hands[row, 0]) + (np.int64(hands[row, 1]) << 8)
        second = np.int64(hands[row, 2]) + (np.int64(hands[row, 3]) << 8)
        total = pair[first] + pair[second] + single[hands[row, 4]]
        index = total & index_mask
        if index < last:
            out[row] = nonflush[index]
        elif total & OUTSIDE:
            return row
        else:
            out[row] = flush[min(int(total & FIVE_KEY_MASK), last_flush)]
    return -1


@_compile
def high_hands(
    hands: NDArray[np.uint8],
    words: NDArray[np.int64],
    suits: NDArray[np.int64],
    dense: NDArray[np.uint16],
    nonflush: NDArray[np.int32],
    base: NDArray[np.int64],
    flush: NDArray[np.int32],
    free: NDArray[np.int64],
    out: NDArray[np.int64],
) -> int:
    """Any 1-7 cards, natural, wild or bugs (words of ``card_words``, padded to 256
    codes with ``OUTSIDE_UNIT``; ``base`` is the row for this hand size); -1 or a bad row."""
    cards = hands.shape[1]
    last_key, last = len(dense) - 1, len(nonflush) - 1
    for row in range(hands.shape[0]):
        total = np.int64(FLUSH_BIAS)
        for column in range(cards):
            total += words[hands[row, column]]
        if total & OUTSIDE:
            return row
        slot = (total >> WB_SHIFT) & 31
        index = int(dense[min(int(total & KEY_MASK), last_key)]) + int(base[slot])
        strength = nonflush[min(index, last)]
        if total & FLUSH_TOPS:
            masks = 0
            for column in range(cards):
                masks += suits[hands[row, column]]
            offset = free[slot]
            for suit in range(4):
                value = flush[offset, (masks >> (SUIT_BITS * suit)) & SUIT_MASK]
                strength = max(strength, value)
        out[row] = strength
    return -1
