"""Lookup tables for high hands, and exhaustive enumeration of hands in chunks.

A hand's strength splits into a part that depends only on the *ranks* of its natural
cards and on how many wild cards and bugs it holds (every category but flushes), and a
part that depends on each suit's set of ranks and the number of free cards (straight
flush or flush). The stronger of the two is the hand's strength, exactly as
:func:`guts.rankings.high_plans.best_plan` finds it, because that search tries categories best
first and takes the best key within each.

* Every rank has an additive key (:data:`RANK_KEYS`, found by :func:`search_rank_keys`)
  such that the multisets of up to seven natural ranks, at most four of a rank, all have
  different sums. ``dense[sum]`` numbers each multiset within its size.
* ``nonflush`` holds, for every (number of naturals, wild cards, bugs) and every rank
  multiset of that size, the strength of :func:`~guts.rankings.high_plans.nonflush_plan`;
  ``base[cards][3 * wild + bugs]`` is where the block for a hand of ``cards`` cards starts.
* ``flush[free, mask]`` is the straight flush or flush one suit makes from the 13-bit
  rank ``mask`` of its natural cards plus ``free`` wild cards and bugs (0 if none).

Tables are built on first use (never at import), kept in memory, and cached on disk under
``platformdirs.user_cache_dir("guts")`` in a versioned, checksummed file; an unwritable
cache directory or a corrupt file just means building them again (about two seconds).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from guts.rankings.high_plans import nonflush_plan, suit_plan

__all__ = [
    "FIVE_KEY_BITS",
    "FIVE_RANK_KEYS",
    "KEY_BITS",
    "RANK_KEYS",
    "HighTables",
    "combinations_array",
    "hand_chunks",
    "high_tables",
    "load_tables",
    "rank_multisets",
    "search_rank_keys",
    "split_hands",
]

VERSION = 2
"""Bump when the table layout or the strengths change: old cache files are then ignored."""

MAX_CARDS = 7
PER_RANK = 4
MAX_BUGS = 2
WB_SLOTS = 3 * MAX_CARDS + MAX_BUGS + 1
"""Values of ``3 * wild + bugs`` a hand of up to seven cards can have."""

RANK_KEYS: tuple[int, ...] = (
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
)  # fmt: skip
"""Additive keys of the ranks two to ace: the output of ``search_rank_keys(7)``
(checked by the tests). Sums of up to seven keys, at most four of each, never collide."""

KEY_BITS = 25
"""Bits a sum of rank keys needs (the largest is 4 * ace + 3 * king < 2**25)."""

FIVE_RANK_KEYS: tuple[int, ...] = (
    1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415, 148432,
)  # fmt: skip
"""Smaller additive keys for hands of exactly five natural cards: ``search_rank_keys(5)``
(checked by the tests). Their sums index :meth:`HighTables.five_card` directly."""

FIVE_KEY_BITS = 20
"""Bits a sum of five of :data:`FIVE_RANK_KEYS` needs (4 * ace + king < 2**20)."""

# The layout of the per-card words that the batch kernels add up (see
# guts.rankings.batch_high, whose module docstring draws it). They live here, below both
# the numpy kernels and the compiled ones (guts.rankings.compiled), which read the same
# bits; guts.rankings.batch_high re-exports them.
KEY_MASK = (1 << KEY_BITS) - 1
WB_SHIFT = KEY_BITS
SUIT_SHIFT = 32
NIBBLE_TOPS = 0x8888
NIBBLE_THREES = 0x3333
SUIT_BITS = 13
SUIT_MASK = (1 << SUIT_BITS) - 1
EVERY_SUIT = 0x1111 << SUIT_SHIFT
FLUSH_BIAS = NIBBLE_THREES << SUIT_SHIFT
FLUSH_TOPS = NIBBLE_TOPS << SUIT_SHIFT
FIVE_KEY_MASK = (1 << FIVE_KEY_BITS) - 1
FIVE_SUIT_FIELD = 3
FIVE_ALL_ALIKE = 0b100_100_100_100 << FIVE_KEY_BITS
"""The top bit of each suit's 3-bit field: set only when all five cards share the suit."""


def search_rank_keys(max_cards: int = MAX_CARDS, sample: int = 3000) -> tuple[int, ...]:
    """Greedy keys for the 13 ranks: each rank takes the smallest key above the previous
    one that keeps the sums of all multisets of up to ``max_cards`` ranks (at most four
    of a rank) distinct.

    Adding ``c`` copies of a new key ``k`` to the multisets found so far (sums ``S_s`` by
    size ``s``) collides exactly when ``a - b == d * k`` for some ``a`` in ``S_{<=n}``,
    ``b`` in ``S_{<=n-d}`` and ``1 <= d <= 4``. Candidates are ruled out a block at a time
    from a sample of the ``b`` values, and the survivors are checked in full.

    >>> search_rank_keys(5)[:6]
    (1, 5, 22, 94, 312, 992)
    """
    sums: list[NDArray[np.int64]] = [np.zeros(1, np.int64)]
    sums += [np.zeros(0, np.int64)] * max_cards
    keys: list[int] = []
    start = 1
    for _rank in range(13):
        key = _next_key(sums, start, max_cards, sample)
        keys.append(key)
        start = key + 1
        sums = [
            np.concatenate([sums[s - c] + c * key for c in range(min(PER_RANK, s) + 1)])
            for s in range(max_cards + 1)
        ]
    return tuple(keys)


def _next_key(sums: list[NDArray[np.int64]], start: int, max_cards: int, sample: int) -> int:
    every = np.sort(np.concatenate(sums))
    top = int(every[-1])
    present = np.zeros(top + 1, bool)
    present[every] = True
    smaller = {
        d: np.sort(np.concatenate(sums[: max_cards - d + 1]))
        for d in range(1, min(PER_RANK, max_cards) + 1)
    }
    width = 1 << 16
    while True:
        ruled_out = np.zeros(width, bool)
        for d, values in smaller.items():
            useful = values[: np.searchsorted(values, top - d * start, "right")]
            picked = useful[:: max(1, len(useful) // sample)]
            ruled_out[_collisions(every, picked, d, start, width)] = True
        for candidate in (np.flatnonzero(~ruled_out) + start).tolist():
            if all(
                not present[shifted[shifted <= top]].any()
                for shifted in (values + d * candidate for d, values in smaller.items())
            ):
                return int(candidate)
        start += width


def _collisions(
    every: NDArray[np.int64], values: NDArray[np.int64], d: int, start: int, width: int
) -> NDArray[np.int64]:
    """Offsets ``k - start`` in ``[0, width)`` with ``a - b == d * k``, a in every, b in values."""
    left = np.searchsorted(every, values + d * start)
    right = np.searchsorted(every, values + d * (start + width))
    counts = right - left
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    index = np.arange(total) + np.repeat(left - (np.cumsum(counts) - counts), counts)
    gaps = every[index] - np.repeat(values, counts)
    if d > 1:
        gaps = gaps[gaps % d == 0]
    offsets: NDArray[np.int64] = gaps // d - start
    return offsets


@cache
def rank_multisets() -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.uint16]]:
    """Every multiset of up to seven ranks (at most four of each) as rank counts.

    Returns ``(counts, sums, dense)``: ``counts`` (M, 13) ordered by size then key sum,
    their key sums, and ``dense`` mapping a key sum to the multiset's index within its
    size. Raises RuntimeError if :data:`RANK_KEYS` ever let two multisets collide.
    """
    rows = np.zeros((1, 0), np.uint8)
    for _rank in range(13):
        size = rows.sum(axis=1)
        grown = []
        for count in range(PER_RANK + 1):
            kept = rows[size + count <= MAX_CARDS]
            grown.append(np.hstack([kept, np.full((len(kept), 1), count, np.uint8)]))
        rows = np.vstack(grown)
    sums = rows.astype(np.int64) @ np.array(RANK_KEYS, np.int64)
    sizes = rows.sum(axis=1, dtype=np.int64)
    order = np.lexsort((sums, sizes))
    rows, sums, sizes = rows[order], sums[order], sizes[order]
    if len(np.unique(sums)) != len(sums) or int(sums.max()) >= 1 << KEY_BITS:
        raise RuntimeError("RANK_KEYS do not give every rank multiset its own sum")
    first = np.searchsorted(sizes, sizes)
    dense = np.zeros(int(sums.max()) + 1, np.uint16)
    dense[sums] = np.arange(len(sums)) - first
    return rows, sums, dense


@dataclass(frozen=True, eq=False)
class HighTables:
    """The lookup tables of one ``ace_low`` setting (see the module docstring)."""

    ace_low: bool
    nonflush: NDArray[np.int32]
    base: NDArray[np.int64]
    flush: NDArray[np.int32]
    dense: NDArray[np.uint16]

    def natural_block(self, cards: int) -> NDArray[np.int32]:
        """Strengths of hands of ``cards`` natural cards, by dense multiset index."""
        start = int(self.base[cards, 0])
        return self.nonflush[start : start + _size_counts()[cards]]

    @cached_property
    def five_card(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Strengths of five natural cards by the sum of their :data:`FIVE_RANK_KEYS`:
        ``(nonflush, flush)``, where ``flush`` holds what the five ranks make in one suit
        (0 where they cannot share a suit). One lookup ranks a five-card hand."""
        counts, _sums, _dense = rank_multisets()
        rows = counts[counts.sum(axis=1) == 5].astype(np.int64)
        keys = rows @ np.array(FIVE_RANK_KEYS, np.int64)
        if len(np.unique(keys)) != len(keys) or int(keys.max()) >= 1 << FIVE_KEY_BITS:
            raise RuntimeError("FIVE_RANK_KEYS do not give every five-rank multiset its own sum")
        nonflush = np.zeros(int(keys.max()) + 1, np.int64)
        nonflush[keys] = self.natural_block(5)
        distinct = (rows <= 1).all(axis=1)
        masks = rows[distinct] @ (1 << np.arange(13, dtype=np.int64))
        flush = np.zeros_like(nonflush)
        flush[keys[distinct]] = self.flush[0].take(masks)
        return nonflush, flush

    def span(self, cards: int) -> tuple[int, int]:
        """The range of ``nonflush`` that hands of ``cards`` cards can reach."""
        end = int(self.base[cards + 1, 0]) if cards < MAX_CARDS else len(self.nonflush)
        return int(self.base[cards, 0]), end


def _size_counts() -> list[int]:
    counts, _sums, _dense = rank_multisets()
    return [int(n) for n in np.bincount(counts.sum(axis=1), minlength=MAX_CARDS + 1)]


def _blocks() -> list[tuple[int, int, int]]:
    """(naturals, wild, bugs) of every block of ``nonflush``, in storage order: by hand
    size first, so the entries of the hands of one size are contiguous."""
    return [
        (cards - w - b, w, b)
        for cards in range(1, MAX_CARDS + 1)
        for w in range(cards + 1)
        for b in range(min(MAX_BUGS, cards - w) + 1)
    ]


def _base(sizes: list[int]) -> NDArray[np.int64]:
    base = np.zeros((MAX_CARDS + 1, WB_SLOTS), np.int64)
    offset = 0
    for m, w, b in _blocks():
        base[m + w + b, 3 * w + b] = offset
        offset += sizes[m]
    return base


def _build_nonflush(ace_low: bool) -> NDArray[np.int32]:
    counts, _sums, _dense = rank_multisets()
    sizes = np.asarray(counts.sum(axis=1))
    by_size = [[[0, 0, *row] for row in counts[sizes == m].tolist()] for m in range(8)]
    values: list[int] = []
    for m, w, b in _blocks():
        size = min(m + w + b, 5)
        values.extend(nonflush_plan(row, w, b, ace_low, size).strength for row in by_size[m])
    return np.array(values, np.int32)


def _build_flush(ace_low: bool) -> NDArray[np.int32]:
    table = np.zeros((MAX_CARDS + 1, 1 << 13), np.int32)
    for mask in range(1 << 13):
        ranks = [rank for rank in range(14, 1, -1) if mask >> (rank - 2) & 1]
        for free in range(max(0, 5 - len(ranks)), MAX_CARDS + 1 - len(ranks)):
            plan = suit_plan(ranks, free, ace_low)
            table[free, mask] = 0 if plan is None else plan.strength
    return table


def _checksum(*arrays: NDArray[np.generic]) -> int:
    value = 0
    for array in arrays:
        value = zlib.crc32(np.ascontiguousarray(array).tobytes(), value)
    return value


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("guts"))


def _file_name(ace_low: bool) -> str:
    return f"high-tables-v{VERSION}-{'ace-low' if ace_low else 'ace-high'}.npz"


def load_tables(ace_low: bool, directory: Path | None = None) -> HighTables:
    """The tables for ``ace_low``, read from ``directory`` (default: the user cache) if a
    valid file is there, else built and written there (silently skipped if unwritable)."""
    folder = _cache_dir() if directory is None else directory
    path = folder / _file_name(ace_low)
    found = _read(path)
    if found is None:
        found = _build_nonflush(ace_low), _build_flush(ace_low)
        _write(path, *found)
    _counts, _sums, dense = rank_multisets()
    return HighTables(ace_low, found[0], _base(_size_counts()), found[1], dense)


def _read(path: Path) -> tuple[NDArray[np.int32], NDArray[np.int32]] | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            nonflush, flush = data["nonflush"], data["flush"]
            keys, checksum = data["keys"], int(data["checksum"])
    except Exception:  # missing, unreadable, truncated or not an npz: rebuild
        return None
    expected = sum(_size_counts()[m] for m, _w, _b in _blocks())
    if (
        tuple(keys.tolist()) != RANK_KEYS
        or nonflush.shape != (expected,)
        or flush.shape != (MAX_CARDS + 1, 1 << 13)
        or nonflush.dtype != np.int32
        or flush.dtype != np.int32
        or checksum != _checksum(nonflush, flush)
    ):
        return None
    return nonflush, flush


def _write(path: Path, nonflush: NDArray[np.int32], flush: NDArray[np.int32]) -> None:
    """Write atomically (a temporary file, then a rename); give up quietly on OSError."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, nonflush=nonflush, flush=flush, keys=np.array(RANK_KEYS),
                     checksum=np.array(_checksum(nonflush, flush)))  # fmt: skip
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@cache
def high_tables(ace_low: bool) -> HighTables:
    """The tables for ``ace_low``, loaded or built once per process."""
    return load_tables(ace_low)


def combinations_array(n: int, r: int) -> NDArray[np.uint8]:
    """All ``r``-subsets of ``range(n)`` (n <= 256) as rows, in lexicographic order.

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if r == 0:
        return np.zeros((1, 0), np.uint8)
    rows = np.arange(n, dtype=np.uint8)[:, None]
    for width in range(2, r + 1):
        firsts = rows[:, 0]
        parts = []
        for value in range(n):
            rest = rows[int(np.searchsorted(firsts, value, "right")) :]
            if len(rest):
                parts.append(np.hstack([np.full((len(rest), 1), value, np.uint8), rest]))
        rows = np.vstack(parts) if parts else np.zeros((0, width), np.uint8)
    return rows


TAIL_CARDS = 5
"""Enumerations precompute every subset of this many cards (C(54, 5) rows at most)."""


def split_hands(n: int, cards: int) -> tuple[NDArray[np.uint8], list[tuple[tuple[int, ...], int]]]:
    """Hands of ``cards`` positions of ``range(n)`` as prefixes joined to shared tails.

    Returns ``(tails, pieces)``: ``tails`` holds every subset of ``t = min(cards, 5)``
    positions in lexicographic order, and each piece ``(prefix, start)`` stands for the
    hands ``prefix + row`` for the rows ``tails[start:]`` (whose first position is above
    the prefix). Together the pieces list every hand once, in lexicographic order, so an
    enumeration costs one pass over precomputed tails per prefix.
    """
    width = min(cards, TAIL_CARDS)
    tails = combinations_array(n, width)
    starts = np.searchsorted(tails[:, 0], np.arange(n + 1)).tolist()
    pieces = [
        (prefix, starts[prefix[-1] + 1 if prefix else 0])
        for prefix in combinations(range(n), cards - width)
    ]
    return tails, [(prefix, start) for prefix, start in pieces if start < len(tails)]


def hand_chunks(
    codes: Sequence[int], cards: int, chunk: int = 1 << 20
) -> Iterator[NDArray[np.uint8]]:
    """Every ``cards``-card hand of the cards ``codes``, as (N, cards) uint8 arrays of
    card codes with N <= ``chunk``, in lexicographic order of positions in ``codes``.

    >>> [block.tolist() for block in hand_chunks([7, 8, 9], 2, chunk=2)]
    [[[7, 8], [7, 9]], [[8, 9]]]
    """
    deck = np.asarray(codes, np.uint8)
    if not 1 <= cards <= len(deck):
        return
    tails, pieces = split_hands(len(deck), cards)
    prefix_width = cards - tails.shape[1]
    pending: list[NDArray[np.uint8]] = []
    held = 0
    for prefix, first in pieces:
        for start in range(first, len(tails), chunk):
            piece = tails[start : start + chunk]
            block = np.empty((len(piece), cards), np.uint8)
            block[:, :prefix_width] = prefix
            block[:, prefix_width:] = piece
            if pending and held + len(block) > chunk:
                yield deck[np.vstack(pending)]
                pending, held = [], 0
            pending.append(block)
            held += len(block)
    if pending:
        yield deck[np.vstack(pending)]
