"""The best-hand search of high poker hands: which category and ranks the cards make.

:func:`best_plan` finds the best five cards of natural cards plus wild cards and bugs
(jokers that play as an ace or to complete a straight or flush), trying the categories
best first. :func:`nonflush_plan` and :func:`suit_plan` split the same search into its
rank part and its per-suit part, from which :mod:`guts.rankings.tables` builds the
lookup tables. :class:`guts.rankings.high.HighRanking` ranks hands with these plans and
tables; this module sits below both, so that the tables never import the ranking.

>>> from guts.cards import parse_cards
>>> plan = best_plan(parse_cards("Kh Kd 5s 5c"), 1, 0, True, 5)
>>> plan.category, plan.key, plan.demands
(<Category.FULL_HOUSE: 'full-house'>, (13, 5), (13, 13, 13, 5, 5))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from guts.cards import Card
from guts.rankings.base import Category, pack

__all__ = ["HIGH_LEVELS", "LEVEL_OF", "Plan", "best_plan", "nonflush_plan", "suit_plan"]

HIGH_LEVELS: tuple[Category, ...] = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.FIVE_OF_A_KIND,
)
"""High-hand categories, worst first: a category's index is its strength level."""

LEVEL_OF: dict[Category, int] = {category: level for level, category in enumerate(HIGH_LEVELS)}
"""Each category's strength level: its index in :data:`HIGH_LEVELS`."""

_DESCENDING = range(14, 1, -1)


@dataclass(frozen=True, slots=True)
class Plan:
    """The best hand found: its category, tie-break ranks and the five ranks that play.

    ``demands`` lists the ranks of the playing cards, most significant first (an ace-low
    straight demands 5, 4, 3, 2 and 14); ``suit`` is the suit every playing card must have
    (flushes), or None.
    """

    category: Category
    key: tuple[int, ...]
    demands: tuple[int, ...]
    suit: int | None = None

    @property
    def strength(self) -> int:
        """The packed strength of this plan."""
        return pack(LEVEL_OF[self.category], self.key)


def best_plan(naturals: Sequence[Card], wild: int, bugs: int, ace_low: bool, size: int) -> Plan:
    """The best hand of ``size`` cards from natural cards plus wild cards and bugs.

    Categories are tried best first, so the first one the cards can make is the answer;
    within a category the highest ranks that can be made are chosen.
    """
    counts = [0] * 15
    for card in naturals:
        counts[(card.code >> 2) + 2] += 1
    counts[14] += bugs  # outside straights and flushes, a bug is an ace
    free = wild + bugs
    if size >= 5:
        plan = _five_of_a_kind(counts, wild)
        if plan is None:
            plan = _straight_flush(naturals, free, ace_low)
        if plan is None:
            plan = _four_of_a_kind(counts, wild, size)
        if plan is None:
            plan = _full_house(counts, wild)
        if plan is None:
            plan = _flush(naturals, free)
        if plan is None:
            plan = _straight(naturals, free, ace_low)
        if plan is not None:
            return plan
    elif size == 4:
        plan = _four_of_a_kind(counts, wild, size)
        if plan is not None:
            return plan
    return _small_kinds(counts, wild, size)


def nonflush_plan(
    counts: list[int], wild: int, bugs: int, ace_low: bool, size: int
) -> Plan:
    """The best hand :func:`best_plan` finds when flushes are left out.

    ``counts[rank]`` counts the natural cards of each rank (indices 2-14, bugs not yet
    added). Because categories are tried best first and each one returns its best key,
    the full answer is the stronger of this plan and :func:`suit_plan` over the suits;
    the lookup tables are built from these two functions.
    """
    present = sum(1 << rank for rank in _DESCENDING if counts[rank])
    counts = list(counts)
    counts[14] += bugs
    if size >= 5:
        plan = _five_of_a_kind(counts, wild)
        if plan is None:
            plan = _four_of_a_kind(counts, wild, size)
        if plan is None:
            plan = _full_house(counts, wild)
        if plan is None:
            plan = _straight_of_ranks(present, wild + bugs, ace_low)
        if plan is not None:
            return plan
    elif size == 4:
        plan = _four_of_a_kind(counts, wild, size)
        if plan is not None:
            return plan
    return _small_kinds(counts, wild, size)


@cache
def _straight_of_ranks(present: int, free: int, ace_low: bool) -> Plan | None:
    """:func:`_straight` for the ranks whose bits are set in ``present`` (memoized)."""
    naturals = [Card.of(rank, 0) for rank in _DESCENDING if present >> rank & 1]
    return _straight(naturals, free, ace_low)


def suit_plan(ranks: Sequence[int], free: int, ace_low: bool) -> Plan | None:
    """The straight flush or flush one suit makes from its natural ``ranks`` plus ``free``
    wild cards and bugs, as in :func:`best_plan` (hands of five or more cards)."""
    naturals = [Card.of(rank, 3) for rank in ranks]
    plan = _straight_flush(naturals, free, ace_low)
    return plan if plan is not None else _flush(naturals, free)


def _kickers(counts: list[int], exclude: tuple[int, ...], number: int) -> tuple[int, ...]:
    """The ``number`` highest natural ranks outside ``exclude``, repeats allowed."""
    kickers: list[int] = []
    for rank in _DESCENDING:
        if rank in exclude:
            continue
        kickers.extend([rank] * counts[rank])
        if len(kickers) >= number:
            break
    return tuple(kickers[:number])


def _five_of_a_kind(counts: list[int], wild: int) -> Plan | None:
    for rank in _DESCENDING:
        if counts[rank] + wild >= 5:
            return Plan(Category.FIVE_OF_A_KIND, (rank,), (rank,) * 5)
    return None


def _four_of_a_kind(counts: list[int], wild: int, size: int) -> Plan | None:
    for rank in _DESCENDING:
        if counts[rank] + wild >= 4:
            kicker = _kickers(counts, (rank,), size - 4)
            return Plan(Category.FOUR_OF_A_KIND, (rank, *kicker), (rank,) * 4 + kicker)
    return None


def _full_house(counts: list[int], wild: int) -> Plan | None:
    for trips in _DESCENDING:
        spare = wild - max(0, 3 - counts[trips])
        if spare < 0:
            continue
        for pair in _DESCENDING:
            if pair != trips and max(0, 2 - counts[pair]) <= spare:
                return Plan(Category.FULL_HOUSE, (trips, pair), (trips,) * 3 + (pair,) * 2)
    return None


def _small_kinds(counts: list[int], wild: int, size: int) -> Plan:
    """Three of a kind, two pair, pair or high card (whatever ``size`` allows)."""
    if size >= 3:
        for rank in _DESCENDING:
            if counts[rank] + wild >= 3:
                kick = _kickers(counts, (rank,), size - 3)
                return Plan(Category.THREE_OF_A_KIND, (rank, *kick), (rank,) * 3 + kick)
    if size >= 4 and wild == 0:
        pairs = [rank for rank in _DESCENDING if counts[rank] >= 2][:2]
        if len(pairs) == 2:
            kick = _kickers(counts, tuple(pairs), size - 4)
            top, low = pairs
            return Plan(Category.TWO_PAIR, (top, low, *kick), (top, top, low, low, *kick))
    if size >= 2:
        for rank in _DESCENDING:
            if counts[rank] + wild >= 2:
                kick = _kickers(counts, (rank,), size - 2)
                return Plan(Category.PAIR, (rank, *kick), (rank, rank, *kick))
    if wild:  # a lone wild card (the only way a wild card gets here) is the best card
        return Plan(Category.HIGH_CARD, (14,), (14,))
    # With a wild card a pair was always possible, so here every card is natural.
    kick = _kickers(counts, (), size)
    return Plan(Category.HIGH_CARD, kick, kick)


def _windows(ace_low: bool) -> list[tuple[int, tuple[int, ...]]]:
    """Straights as (top card, ranks), best first."""
    windows = [(top, tuple(range(top, top - 5, -1))) for top in range(14, 5, -1)]
    if ace_low:
        windows.append((5, (5, 4, 3, 2, 14)))
    return windows


_WINDOWS = {flag: _windows(flag) for flag in (True, False)}


def _ranks_by_suit(naturals: Sequence[Card]) -> list[set[int]]:
    by_suit: list[set[int]] = [set(), set(), set(), set()]
    for card in naturals:
        by_suit[card.code & 3].add((card.code >> 2) + 2)
    return by_suit


def _straight_flush(naturals: Sequence[Card], free: int, ace_low: bool) -> Plan | None:
    by_suit = _ranks_by_suit(naturals)
    for top, ranks in _WINDOWS[ace_low]:
        for suit in (3, 2, 1, 0):
            if sum(rank in by_suit[suit] for rank in ranks) + free >= 5:
                return Plan(Category.STRAIGHT_FLUSH, (top,), ranks, suit)
    return None


def _flush(naturals: Sequence[Card], free: int) -> Plan | None:
    best: Plan | None = None
    for suit, present in enumerate(_ranks_by_suit(naturals)):
        if len(present) + free < 5:
            continue
        missing = [rank for rank in _DESCENDING if rank not in present][:free]
        ranks = tuple(sorted(present | set(missing), reverse=True)[:5])
        if best is None or ranks > best.key:
            best = Plan(Category.FLUSH, ranks, ranks, suit)
    return best


def _straight(naturals: Sequence[Card], free: int, ace_low: bool) -> Plan | None:
    present = {(card.code >> 2) + 2 for card in naturals}
    for top, ranks in _WINDOWS[ace_low]:
        if sum(rank in present for rank in ranks) + free >= 5:
            return Plan(Category.STRAIGHT, (top,), ranks)
    return None
