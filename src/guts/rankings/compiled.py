"""Compiled high-hand kernels: the numpy kernels' lookups, fused into one loop per hand.

Optional: this module needs numba (``pip install 'guts[fast]'``) and is imported only when
a batch is ranked with compiled kernels (see :func:`use_compiled`). Each kernel reads the
very tables of :mod:`guts.rankings.batch_high` and returns what the numpy path returns;
the tests hold the two equal. Instead of raising inside compiled code, a kernel returns
the first row holding a code outside the pack (or -1), and the caller raises.

Kernels are compiled on first use and cached on disk by numba (``cache=True``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from guts.errors import OptionError

__all__ = ["KERNELS_VARIABLE", "five_natural", "high_hands", "use_compiled"]

KERNELS_VARIABLE = "GUTS_KERNELS"
"""Environment variable choosing the batch kernels: ``auto`` (compiled when numba is
installed, the default), ``numba`` or ``numpy``."""

Function = TypeVar("Function", bound=Callable[..., Any])
_compile = cast(Callable[[Function], Function], numba.njit(cache=True, nogil=True))

KEY_MASK = (1 << 25) - 1
WB_SHIFT = 25
FLUSH_BIAS = 0x3333 << 32
FLUSH_TOPS = 0x8888 << 32
SUIT_BITS = 13
SUIT_MASK = (1 << SUIT_BITS) - 1
FIVE_KEY_MASK = (1 << 20) - 1
OUTSIDE = 0x7F << 56


def use_compiled() -> bool:
    """Whether batches run on the compiled kernels, from :data:`KERNELS_VARIABLE`.

    Importing this module means numba is installed, so ``auto`` means yes here.
    """
    choice = os.environ.get(KERNELS_VARIABLE, "auto").strip().lower() or "auto"
    if choice not in ("auto", "numba", "numpy"):
        raise OptionError(
            f"{KERNELS_VARIABLE} must be auto, numba or numpy, not {choice!r}"
        )
    return choice != "numpy"


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
    for row in range(hands.shape[0]):
        total = (pair[hands[row, 0] + 256 * hands[row, 1]]
                 + pair[hands[row, 2] + 256 * hands[row, 3]] + single[hands[row, 4]])  # fmt: skip
        index = total & index_mask
        if index < last:
            out[row] = nonflush[index]
        elif total & OUTSIDE:
            return row
        else:
            out[row] = flush[total & FIVE_KEY_MASK]
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
    for row in range(hands.shape[0]):
        total = FLUSH_BIAS
        for column in range(cards):
            total += words[hands[row, column]]
        if total & OUTSIDE:
            return row
        slot = (total >> WB_SHIFT) & 31
        strength = nonflush[dense[total & KEY_MASK] + base[slot]]
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
