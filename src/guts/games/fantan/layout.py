"""The layout of Fan Tan: one row per suit, built out from its seven one card at a time.

A row is the run of a suit's cards from its lowest to its highest, always holding the
seven. A card fits when it is a seven of a suit not yet started, or the next card beyond
either end of its suit's row. Where aces sit is the rules' :class:`~guts.games.fantan.
rules.Aces`: the ranks of a row in order, low to high, are :func:`row_order`.

>>> from guts.cards import parse_card
>>> layout = Layout(Aces.LOW)
>>> layout.fits(parse_card("8h")), layout.fits(parse_card("7h"))
(False, True)
>>> layout.play(parse_card("7h"))
>>> sorted(c.ascii for c in layout.next_cards())
['6h', '7c', '7d', '7s', '8h']
>>> [c.ascii for c in layout.held_up(parse_card("8h"))]
['9h']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from guts.cards import Card, Rank, Suit
from guts.games.fantan.rules import Aces

__all__ = ["SUITS", "Layout", "row_order"]

SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""The rows, in the order views list them."""


@cache
def row_order(aces: Aces) -> tuple[Rank, ...]:
    """The ranks of a row from its low end to its high end."""
    middle = tuple(Rank(value) for value in range(2, 14))
    return (Rank.ACE, *middle) if aces is Aces.LOW else (*middle, Rank.ACE)


class Layout:
    """The rows on the table: for each started suit, the positions (in :func:`row_order`)
    of its lowest and highest card."""

    __slots__ = ("aces", "ends", "order", "position", "seven")

    def __init__(self, aces: Aces) -> None:
        self.aces = aces
        self.order = row_order(aces)
        self.position = {rank: index for index, rank in enumerate(self.order)}
        self.seven = self.position[Rank.SEVEN]
        self.ends: dict[Suit, tuple[int, int]] = {}

    def _card(self, suit: Suit, index: int) -> Card:
        return Card.of(self.order[index], suit)

    def _index(self, card: Card) -> tuple[Suit, int]:
        assert card.rank is not None and card.suit is not None  # a standard pack: no jokers
        return card.suit, self.position[card.rank]

    def fits(self, card: Card) -> bool:
        """True if ``card`` may be played now."""
        suit, index = self._index(card)
        ends = self.ends.get(suit)
        if ends is None:
            return index == self.seven
        return index in (ends[0] - 1, ends[1] + 1)

    def next_cards(self) -> frozenset[Card]:
        """Every card that fits now (unstarted sevens and the cards beyond each row's ends)."""
        cards = set()
        last = len(self.order) - 1
        for suit in SUITS:
            ends = self.ends.get(suit)
            if ends is None:
                cards.add(self._card(suit, self.seven))
                continue
            if ends[0] > 0:
                cards.add(self._card(suit, ends[0] - 1))
            if ends[1] < last:
                cards.add(self._card(suit, ends[1] + 1))
        return frozenset(cards)

    def play(self, card: Card) -> None:
        """Put ``card`` (which must fit) on its row."""
        assert self.fits(card), f"{card.ascii} does not fit"
        suit, index = self._index(card)
        low, high = self.ends.get(suit, (index, index))
        self.ends[suit] = (min(low, index), max(high, index))

    def held_up(self, card: Card) -> tuple[Card, ...]:
        """The cards that cannot be played until ``card`` is: the next card outward from the
        seven in its row (both neighbours for a seven; none past a row's end)."""
        suit, index = self._index(card)
        steps = (-1, 1) if index == self.seven else (-1,) if index < self.seven else (1,)
        return tuple(
            self._card(suit, index + step) for step in steps if 0 <= index + step < len(self.order)
        )

    def row(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of ``suit``'s row, low to high (empty before its seven)."""
        ends = self.ends.get(suit)
        if ends is None:
            return ()
        return tuple(self._card(suit, index) for index in range(ends[0], ends[1] + 1))

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Cards by row, then by place in the row (how a hand is shown)."""
        suit, index = self._index(card)
        return SUITS.index(suit), index

    def sorted(self, cards: Iterable[Card]) -> list[Card]:
        """``cards`` by row and place in the row."""
        return sorted(cards, key=self.sort_key)
