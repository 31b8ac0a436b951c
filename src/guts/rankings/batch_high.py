"""Vectorized high-hand strengths: numpy table lookups for natural, wild and bug hands.

Each card code maps to one 64-bit word, and a hand's words add up without carries:

====================  ======================================================
bits 0-24             sum of the rank keys of its natural cards
bits 25-29            ``3 * wild + bugs`` (wild cards, wild jokers; bug jokers)
bits 32-47            per suit, one nibble: its natural cards plus the free cards
====================  ======================================================

The words are summed two cards per lookup (:mod:`guts.rankings.word_sums`), which also
flags codes outside the pack. The rank-key sum and ``3 * wild + bugs`` pick the non-flush
strength out of the tables of :mod:`guts.rankings.tables`. A suit can make a flush only
if its nibble reaches five; the first card's word also adds 3 to every nibble, so that
happens exactly when the nibble's top bit is set (at most 7 + 3, no carries). Only those
few hands look up per-suit rank masks (a second word per card: bit
``13 * suit + rank - 2``) in the flush table.

Five natural cards, the commonest case, have pair tables of their own
(:func:`five_card_sums`): smaller rank keys whose sum indexes the strength directly, and
above them a flag that is set only when all five cards share a suit. A flush of five
cards has five distinct ranks, so the same rank sum indexes its strength in a second
table. Work proceeds in blocks small enough for the temporaries to stay in cache.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from guts.cards import Card
from guts.errors import HandError, OptionError
from guts.rankings.tables import (
    EVERY_SUIT,
    FIVE_ALL_ALIKE,
    FIVE_KEY_BITS,
    FIVE_KEY_MASK,
    FIVE_RANK_KEYS,
    FIVE_SUIT_FIELD,
    FLUSH_BIAS,
    FLUSH_TOPS,
    KEY_MASK,
    MAX_CARDS,
    RANK_KEYS,
    SUIT_BITS,
    SUIT_MASK,
    SUIT_SHIFT,
    WB_SHIFT,
    WB_SLOTS,
    HighTables,
    high_tables,
    split_hands,
)
from guts.rankings.tables import KEY_BITS as KEY_BITS
from guts.rankings.tables import NIBBLE_THREES as NIBBLE_THREES
from guts.rankings.tables import NIBBLE_TOPS as NIBBLE_TOPS
from guts.rankings.wilds import JokerMode, Wilds
from guts.rankings.word_sums import (
    BYTE_CODES,
    OUTSIDE,
    OUTSIDE_UNIT,
    WordSums,
    as_code_bytes,
    outside_error,
    reject_outside,
)

# The word-layout constants (KEY_MASK, FLUSH_BIAS, ...) live in guts.rankings.tables,
# below both these kernels and guts.rankings.compiled, which reads them too; the three
# this module does not use are re-imported above so that all stay importable from here.

__all__ = ["KERNELS_VARIABLE", "HighKernel", "compiled_kernels", "kernel", "kernels_choice"]

BLOCK = 1 << 16
FIVE_INDEX_MASK = FIVE_KEY_MASK | FIVE_ALL_ALIKE | OUTSIDE

Progress = Callable[[int, int], None]


def card_words(wilds: Wilds) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The per-code words (see the module docstring) and per-code suit-rank bits."""
    words = np.zeros(54, np.int64)
    suits = np.zeros(54, np.int64)
    for code in range(54):
        card = Card(code)
        if card.is_joker:
            words[code] = (3 if wilds.joker is JokerMode.WILD else 1) << WB_SHIFT
            words[code] += EVERY_SUIT
        elif wilds.is_wild(card):
            words[code] = (3 << WB_SHIFT) + EVERY_SUIT
        else:
            rank, suit = code >> 2, code & 3
            words[code] = RANK_KEYS[rank] + (1 << (SUIT_SHIFT + 4 * suit))
            suits[code] = 1 << (SUIT_BITS * suit + rank)
    return words, suits


def five_card_sums() -> WordSums:
    """Pair tables for exactly five natural cards, read as two pairs and a fifth card.

    Bits 0-19 add up the ranks' keys of :data:`~guts.rankings.tables.FIVE_RANK_KEYS`.
    Bits 20-31 hold one 3-bit field per suit: a pair of cards of one suit adds 1 to that
    suit's field, the fifth card adds 2 to its own, so a field reaches 4 (its top bit, in
    :data:`FIVE_ALL_ALIKE`) exactly when all five cards share the suit, and never
    carries. Codes outside the 52 cards add :data:`~guts.rankings.word_sums.OUTSIDE_UNIT`.
    """
    codes = np.arange(BYTE_CODES)
    inside = codes < 52
    suit = codes & 3
    keys = np.array(FIVE_RANK_KEYS, np.int64).take(np.minimum(codes >> 2, 12))
    rank = np.where(inside, keys, OUTSIDE_UNIT)
    field = np.int64(1) << (FIVE_KEY_BITS + FIVE_SUIT_FIELD * suit)
    one_suit = inside[:, None] & inside[None, :] & (suit[:, None] == suit[None, :])
    pair = rank[:, None] + rank[None, :] + np.where(one_suit, field[:, None], 0)
    single = rank + np.where(inside, 2 * field, 0)
    flat_pair = pair.reshape(-1)  # symmetric, so [b, a] is a + 256 * b as well
    return WordSums(flat_pair, flat_pair, single, single)


@dataclass(frozen=True, eq=False)
class HighKernel:
    """Batch evaluation for one set of wild cards and one ``ace_low`` setting."""

    tables: HighTables
    words: NDArray[np.int64]
    suits: NDArray[np.int64]
    natural: bool
    free: NDArray[np.int64]
    valid: int
    sums: WordSums
    five_sums: WordSums
    five_nonflush: NDArray[np.int64]

    @classmethod
    def build(cls, wilds: Wilds, jokers: int, ace_low: bool) -> HighKernel:
        """The kernel of a :class:`~guts.rankings.high.HighRanking`'s options."""
        words, suits = card_words(wilds)
        free = np.array([wb // 3 + wb % 3 for wb in range(WB_SLOTS)], np.int64)
        natural = not wilds and not jokers
        valid = 52 + jokers
        tables = high_tables(ace_low)
        return cls(
            tables, words, suits, natural, free, valid,
            WordSums.of(words, valid, FLUSH_BIAS), five_card_sums(),
            np.append(tables.five_card[0], -1),  # the last entry: look again
        )  # fmt: skip

    def table_bytes(self) -> int:
        """Bytes of every lookup table this kernel reads (each shared array once)."""
        tables = self.tables
        arrays: list[NDArray[np.generic]] = [
            tables.nonflush, tables.base, tables.flush, tables.dense, *tables.five_card,
            self.words, self.suits, self.free, self.five_nonflush,
        ]  # fmt: skip
        for sums in (self.sums, self.five_sums):
            arrays += [sums.first_pair, sums.pair, sums.first_single, sums.single]
        unique = {id(array): array for array in arrays}
        return sum(array.nbytes for array in unique.values())

    def strengths(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of the (N, k) hands ``codes``, 1 <= k <= 7."""
        hands = as_code_bytes(codes)
        if hands.size == 0 and hands.ndim < 2:
            return np.zeros(0, np.int64)
        if hands.ndim != 2 or not 1 <= hands.shape[1] <= MAX_CARDS:
            raise HandError(
                f"a high hand has 1 to 7 cards: expected an (N, k) array of card codes "
                f"with 1 <= k <= 7, not shape {hands.shape}"
            )
        columns = hands.shape[1]
        kernels = compiled_kernels()
        if kernels is not None:
            return self._compiled(kernels, hands)
        if self.natural and columns == 5:
            return self._five_natural(hands)
        out = np.empty(len(hands), np.int64)
        for start in range(0, len(hands), BLOCK):
            block = hands[start : start + BLOCK]
            out[start : start + BLOCK] = self._finish(self.sums.total(block), block, columns)
        return out

    def _compiled(self, kernels: ModuleType, hands: NDArray[np.uint8]) -> NDArray[np.int64]:
        """The same strengths from the fused loops of :mod:`guts.rankings.compiled`."""
        out = np.empty(len(hands), np.int64)
        columns = hands.shape[1]
        if self.natural and columns == 5:
            sums, valid = self.five_sums, 52
            bad = kernels.five_natural(hands, sums.pair, sums.single, self.five_nonflush,
                                       self.tables.five_card[1], FIVE_INDEX_MASK, out)  # fmt: skip
        else:
            tables, valid = self.tables, self.valid
            bad = kernels.high_hands(hands, self.sums.single, self.suits, tables.dense,
                                     tables.nonflush, tables.base[columns], tables.flush,
                                     self.free, out)  # fmt: skip
        if bad >= 0:
            raise outside_error(hands[bad], valid)
        return out

    def _five_natural(self, hands: NDArray[np.uint8]) -> NDArray[np.int64]:
        """Five natural cards: one lookup by the rank-key sum of :func:`five_card_sums`.

        Hands of one suit or with codes outside the pack have bits above the rank sum,
        so the clipped lookup lands on the table's last entry, -1. Those few rows are
        checked, and the flushes are looked up by the same rank sum in the flush table.
        """
        _nonflush, flush = self.tables.five_card
        out = np.empty(len(hands), np.int64)
        for start in range(0, len(hands), BLOCK):
            block = hands[start : start + BLOCK]
            total = self.five_sums.total(block)
            part = out[start : start + BLOCK]
            self.five_nonflush.take(total & FIVE_INDEX_MASK, out=part, mode="clip")
            rows = np.flatnonzero(part < 0)
            if len(rows):
                reject_outside(total[rows], block[rows], 52)
                part[rows] = flush.take(total[rows] & FIVE_KEY_MASK, mode="clip")
        return out

    def _nonflush_index(self, total: NDArray[np.int64], cards: int) -> NDArray[np.intp]:
        dense = self.tables.dense.take(total & KEY_MASK, mode="clip").astype(np.intp)
        if self.natural:
            return dense + int(self.tables.base[cards, 0])
        slot = (total >> WB_SHIFT) & 31
        index: NDArray[np.intp] = dense + self.tables.base[cards].take(slot, mode="clip")
        return index

    def _flush_index(
        self, total: NDArray[np.int64], suits: NDArray[np.int64]
    ) -> tuple[NDArray[np.intp], NDArray[np.int32]]:
        """Flat flush-table index of the best suit of each row, and its strength."""
        free = self.free.take((total >> WB_SHIFT) & 31, mode="clip")
        base = (free << SUIT_BITS).astype(np.intp)
        flat = self.tables.flush.reshape(-1)
        best = base + (suits & SUIT_MASK)
        value = flat.take(best, mode="clip")
        for suit in range(1, 4):
            index = base + ((suits >> (SUIT_BITS * suit)) & SUIT_MASK)
            other = flat.take(index, mode="clip")
            better = other > value
            best = np.where(better, index, best)
            value = np.where(better, other, value)
        return best, value

    def _finish(
        self, total: NDArray[np.int64], block: NDArray[np.uint8], cards: int
    ) -> NDArray[np.int32]:
        strength = self.tables.nonflush.take(self._nonflush_index(total, cards), mode="clip")
        rows = _flagged(total, FLUSH_TOPS | OUTSIDE if cards >= 5 else OUTSIDE)
        if len(rows):
            picked = block[rows]
            reject_outside(total[rows], picked, self.valid)
            suits = self.suits.take(picked).sum(axis=1)
            _index, value = self._flush_index(total[rows], suits)
            strength[rows] = np.maximum(strength[rows], value)
        return strength

    def census(
        self, deck: list[int], cards: int, progress: Progress | None = None
    ) -> tuple[dict[int, int], int]:
        """Every ``cards``-card hand of ``deck``: hands per strength level, and the number
        of distinct strengths. Uses precomputed word sums of shared tails."""
        tails, pieces = split_hands(len(deck), cards)
        words, suits = self.words[deck], self.suits[deck]
        tail_words = words[tails].sum(axis=1)
        tail_suits = suits[tails].sum(axis=1)
        low, high = self.tables.span(cards)
        nonflush = np.zeros(high - low + 1, np.int64)
        flush = np.zeros(self.tables.flush.size, np.int64)
        total_hands = sum(len(tails) - start for _prefix, start in pieces)
        done = 0
        for prefix, first in pieces:
            extra_word = int(words[list(prefix)].sum()) + FLUSH_BIAS
            extra_suits = int(suits[list(prefix)].sum())
            for start in range(first, len(tails), BLOCK):
                total = tail_words[start : start + BLOCK] + extra_word
                index = self._nonflush_index(total, cards) - low
                if cards >= 5:
                    rows = _flagged(total, FLUSH_TOPS)
                    if len(rows):
                        suit_bits = tail_suits[start : start + BLOCK][rows] + extra_suits
                        best, value = self._flush_index(total[rows], suit_bits)
                        wins = value > self.tables.nonflush.take(index[rows] + low)
                        index[rows[wins]] = high - low
                        flush += np.bincount(best[wins], minlength=flush.size)
                nonflush += np.bincount(index, minlength=nonflush.size)
                done += len(total)
            if progress is not None:
                progress(done, total_hands)
        return _tally(self.tables.nonflush[low:high], nonflush[:-1],
                      self.tables.flush.reshape(-1), flush)  # fmt: skip


KERNELS_VARIABLE = "GUTS_KERNELS"
"""Environment variable choosing the batch kernels of high hands: ``auto`` (the default:
the compiled kernels when numba is installed), ``numba`` or ``numpy``. It is read on every
batch, so it applies to the whole process."""


def kernels_choice() -> str:
    """``auto``, ``numba`` or ``numpy``, from :data:`KERNELS_VARIABLE`."""
    choice = os.environ.get(KERNELS_VARIABLE, "").strip().lower() or "auto"
    if choice not in ("auto", "numba", "numpy"):
        raise OptionError(f"{KERNELS_VARIABLE} must be auto, numba or numpy, not {choice!r}")
    return choice


def compiled_kernels() -> ModuleType | None:
    """:mod:`guts.rankings.compiled` if batches should run on it (numba is installed and
    :data:`KERNELS_VARIABLE` is not ``numpy``), else None for the numpy kernels. With
    ``numpy`` chosen, numba is not even imported."""
    choice = kernels_choice()
    if choice == "numpy":
        return None
    kernels = _compiled_module()
    if kernels is None and choice == "numba":
        raise OptionError(
            f"{KERNELS_VARIABLE}=numba needs numba: install it with pip install 'guts[fast]'"
        )
    return kernels


@cache
def _compiled_module() -> ModuleType | None:
    try:
        from guts.rankings import compiled
    except ImportError:
        return None
    return compiled


def _flagged(total: NDArray[np.int64], mask: int) -> NDArray[np.intp]:
    """The rows whose total has any bit of ``mask`` (usually very few)."""
    return np.flatnonzero((total & mask).astype(bool))


def _tally(
    nonflush_values: NDArray[np.int32],
    nonflush_counts: NDArray[np.int64],
    flush_values: NDArray[np.int32],
    flush_counts: NDArray[np.int64],
) -> tuple[dict[int, int], int]:
    values = np.concatenate([nonflush_values, flush_values])
    counts = np.concatenate([nonflush_counts, flush_counts])
    seen = values[counts > 0]
    levels = np.bincount(values >> 20, weights=counts, minlength=16)
    by_level = {level: int(n) for level, n in enumerate(levels.tolist()) if n}
    return by_level, len(np.unique(seen))


@cache
def kernel(wilds: Wilds, jokers: int, ace_low: bool) -> HighKernel:
    """The kernel for these options (built once for each)."""
    return HighKernel.build(wilds, jokers, ace_low)
