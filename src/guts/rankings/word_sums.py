"""Sums of per-card words over many hands, two cards per table lookup.

The batch kernels give every card code a word, and a hand's words add up (without
carries) to a number that the lookup tables are indexed by. Instead of one gather per
card, two neighbouring card codes of a row are read together as one little-endian 16-bit
*pair code*, ``first + 256 * second``: a strided view of the hands' bytes, with no copy.
A 65,536-entry table holds the sum of the two cards' words for every pair code, so a
five-card hand costs two pair lookups and one single-card lookup.

Codes outside the pack (and the bytes 54-255) look up :data:`OUTSIDE_UNIT` instead of a
word. Valid words stay below it, so ``total & OUTSIDE`` is non-zero exactly when some card
of the hand is outside the pack, and one test over the few flagged rows finds them.

>>> import numpy as np
>>> sums = WordSums.of(np.array([1, 10, 100], np.int64), valid=3)
>>> sums.total(np.array([[0, 1, 2], [2, 2, 2]], np.uint8)).tolist()
[111, 300]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from guts.errors import HandError

__all__ = [
    "OUTSIDE",
    "OUTSIDE_UNIT",
    "WordSums",
    "as_code_bytes",
    "outside_error",
    "reject_outside",
]

OUTSIDE_UNIT = 1 << 56
"""What a code outside the pack adds to a hand's total (seven of them stay below 2**59)."""

OUTSIDE = 0x7F << 56
"""The bits of a total that only codes outside the pack can set."""

BYTE_CODES = 256
CONVERT_BLOCK = 1 << 18


@dataclass(frozen=True, eq=False)
class WordSums:
    """Per-position tables that add up the words of a hand's cards, a pair at a time.

    ``first_pair`` and ``first_single`` serve the hand's first card, which may add a
    ``bias`` once per hand; ``pair`` and ``single`` serve the rest.
    """

    first_pair: NDArray[np.int64]
    pair: NDArray[np.int64]
    first_single: NDArray[np.int64]
    single: NDArray[np.int64]

    @classmethod
    def of(cls, words: NDArray[np.int64], valid: int, bias: int = 0) -> WordSums:
        """Tables for ``words[code]`` where codes ``0 .. valid - 1`` are in the pack; the
        first card of every hand also adds ``bias``."""
        plain = _by_byte(words, valid, 0)
        first = _by_byte(words, valid, bias)
        return cls(_paired(first, plain), _paired(plain, plain), first, plain)

    def total(self, hands: NDArray[np.uint8]) -> NDArray[np.int64]:
        """The word sum of each row of the (N, k) uint8 array ``hands``, k >= 1 (read in
        place when C-contiguous, as :func:`as_code_bytes` leaves it)."""
        hands = np.ascontiguousarray(hands)
        count, cards = hands.shape
        if cards == 0:
            raise HandError("a hand has at least one card")
        flat = hands.reshape(-1)
        if count == 0:
            return np.zeros(0, np.int64)
        if cards == 1:
            return self.first_single.take(flat)
        total = self.first_pair.take(_pair_codes(flat, count, cards, 0))
        for pair in range(1, cards // 2):
            total += self.pair.take(_pair_codes(flat, count, cards, pair))
        if cards % 2:
            total += self.single.take(hands[:, cards - 1])
        return total


def _by_byte(words: NDArray[np.int64], valid: int, bias: int) -> NDArray[np.int64]:
    table = np.full(BYTE_CODES, OUTSIDE_UNIT, np.int64)
    table[:valid] = words[:valid] + bias
    return table


def _paired(first: NDArray[np.int64], second: NDArray[np.int64]) -> NDArray[np.int64]:
    """``table[a + 256 * b] = first[a] + second[b]``."""
    table: NDArray[np.int64] = np.add.outer(second, first).reshape(-1)
    return table


def _pair_codes(flat: NDArray[np.uint8], count: int, cards: int, pair: int) -> NDArray[np.uint16]:
    """Cards ``2 * pair`` and ``2 * pair + 1`` of every row, read as one 16-bit code."""
    view: NDArray[np.uint16] = np.ndarray(
        (count,), np.dtype("<u2"), flat, offset=2 * pair, strides=(cards,)
    )
    return view


def as_code_bytes(codes: NDArray[np.integer]) -> NDArray[np.uint8]:
    """``codes`` as a C-contiguous uint8 array (no copy if it is one already).

    Other integer types are checked and converted a block at a time, so the work stays in
    cache. Raises :class:`HandError` for anything but integers, or a code below 0 or
    above 255 (no byte holds it); codes 54-255 are left for :func:`reject_outside`.
    """
    array = np.asarray(codes)
    if array.dtype == np.uint8:
        return np.ascontiguousarray(array)
    if array.dtype.kind not in "iu":
        raise HandError(f"card codes are integers, not {array.dtype}")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    flat = array.reshape(-1)
    unsigned = flat.view(f"u{array.itemsize}")  # a negative code becomes a huge one
    limit = 128 if array.dtype == np.int8 else BYTE_CODES  # -1 as a byte is 255
    out = np.empty(flat.shape, np.uint8)
    for start in range(0, len(flat), CONVERT_BLOCK):
        piece = unsigned[start : start + CONVERT_BLOCK]
        if int(piece.max()) >= limit:
            bad = int(flat[start + int(np.argmax(piece >= limit))])
            raise HandError(
                f"card code {bad} is not a card: card codes run from 0 to 53 (the jokers)"
            )
        np.copyto(out[start : start + CONVERT_BLOCK], piece, casting="unsafe")
    return out.reshape(array.shape)


def reject_outside(totals: NDArray[np.int64], hands: NDArray[np.uint8], valid: int) -> None:
    """Raise :class:`HandError` naming a card outside the pack, if any row has one."""
    if (totals & OUTSIDE).any():
        raise outside_error(hands, valid)


def outside_error(hands: NDArray[np.uint8], valid: int) -> HandError:
    """The error for ``hands``, some code of which is not below ``valid``."""
    bad = int(hands[hands >= valid][0])
    return HandError(
        f"card code {bad} is not in this ranking's pack: its codes run from 0 to {valid - 1}"
    )
