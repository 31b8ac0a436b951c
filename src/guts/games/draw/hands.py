"""Hand tests of draw poker: openers, trips to win, what a proof shows, declarations.

>>> from guts.cards import parse_cards
>>> from guts.rankings.high import HighRanking
>>> high = HighRanking()
>>> opens(high, parse_cards("Js Jh 4c 3d 2s"), Rank.JACK)
True
>>> opens(high, parse_cards("Ts Th Ac Kd Qs"), Rank.JACK)
False
>>> opens(high, parse_cards("5s 5h 3c 3d 6s"), Rank.JACK)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from guts.cards import Card, Rank
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.high import HIGH_LEVELS
from guts.rankings.stripped import StrippedRanking

__all__ = ["declared_strength", "opens", "proof_cards", "wins_trips"]

_PAIR = HIGH_LEVELS.index(Category.PAIR)

# How many of the cards that play make each category (the rest are kickers).
_MAKING = {
    Category.PAIR: 2, Category.TWO_PAIR: 4, Category.THREE_OF_A_KIND: 3,
    Category.FOUR_OF_A_KIND: 4, Category.HIGH_CARD: 0,
}  # fmt: skip


def _floor(ranking: Ranking, level: int, rank: int) -> int:
    """The strength just below every hand of ``level`` whose top rank is ``rank``."""
    value = pack(level, [rank])
    return value << 2 if isinstance(ranking, StrippedRanking) else value


def opens(ranking: Ranking, cards: Sequence[Card], rank: Rank | None) -> bool:
    """True if ``cards`` are at least a pair of ``rank`` (any hand when ``rank`` is None).

    With fewer than five cards only the of-a-kind categories count (the kept cards of a
    player who split openers).
    """
    if rank is None:
        return True
    if not cards:
        return False
    if isinstance(ranking, StrippedRanking) and len(cards) < 5:
        return _kept_opens(cards, rank)
    return ranking.strength(cards) >= _floor(ranking, _PAIR, rank)


def _kept_opens(cards: Sequence[Card], rank: Rank) -> bool:
    counts: dict[int, int] = {}
    for card in cards:
        if card.rank is not None:
            counts[card.rank] = counts.get(card.rank, 0) + 1
    pairs = [r for r, n in counts.items() if n >= 2]
    return any(n >= 3 for n in counts.values()) or len(pairs) >= 2 or any(r >= rank for r in pairs)


def wins_trips(ranking: Ranking, cards: Sequence[Card]) -> bool:
    """True if the hand is three of a kind or better (Trips to Win)."""
    order = ranking.categories()
    category = ranking.evaluate(cards).category
    return order.index(category) <= order.index(Category.THREE_OF_A_KIND)


def proof_cards(evaluation: Evaluation) -> tuple[Card, ...]:
    """Enough of a hand to prove it: the cards making its category (all five otherwise)."""
    count = _MAKING.get(evaluation.category, len(evaluation.cards))
    return evaluation.cards[:count] if count else evaluation.cards


def declared_strength(ranking: Ranking, cards: Sequence[Card], declared: Category) -> int | None:
    """A hand's strength when its holder declared ``declared`` (cards do not speak).

    Declared right: its real strength. Declared below what it holds: the floor of the
    declared category (beaten by every correct declaration of it). Declared above: None,
    a dead hand. Only for the high ranking (levels of :data:`HIGH_LEVELS`).
    """
    actual = ranking.evaluate(cards)
    have, said = HIGH_LEVELS.index(actual.category), HIGH_LEVELS.index(declared)
    if said > have:
        return None
    if said == have:
        return actual.strength
    return pack(said, [])
