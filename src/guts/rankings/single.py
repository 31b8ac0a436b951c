"""One-card hands (Toh): high card wins, and suits break ties, clubs lowest.

"High card wins; card value increases by suit, club-diamond-heart-spade."

>>> from guts.cards import parse_cards
>>> toh = SingleCardRanking()
>>> toh.describe(parse_cards("As"))
'Ace of spades'
>>> toh.strength(parse_cards("7s")) > toh.strength(parse_cards("7h"))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from guts.cards import Card
from guts.errors import OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import Wilds

__all__ = ["SingleCardRanking"]

_NO_WILDS = Wilds()
_STRENGTHS = tuple(pack(0, ((code >> 2) + 2, code & 3)) for code in range(52))
"""Strength by card code: the rank, then the suit (clubs 0 < diamonds < hearts < spades)."""


@dataclass(frozen=True)
class SingleCardRanking(Ranking):
    """A single card: rank (ace high), then suit clubs < diamonds < hearts < spades.

    Every card is its own class, so no two different cards tie. There are no options,
    wild cards or jokers.
    """

    name: ClassVar[str] = "single"
    min_cards: ClassVar[int] = 1
    max_cards: ClassVar[int] = 1

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> Self:
        """The one single-card ranking; any option, wild card or joker is an error."""
        for key in options:
            raise OptionError(f"unknown option {key!r} for the single ranking: it has no options")
        if wilds:
            raise OptionError("the single ranking (Toh) has no wild cards")
        if jokers:
            raise OptionError("the single ranking (Toh) uses the 52-card pack: no jokers")
        return cls()

    def categories(self) -> tuple[Category, ...]:
        """Only high card."""
        return (Category.HIGH_CARD,)

    def strength(self, cards: Sequence[Card]) -> int:
        """The card's rank, then its suit."""
        if len(cards) == 1 and cards[0].code < 52:
            return _STRENGTHS[cards[0].code]
        return _STRENGTHS[self.check(cards)[0].code]

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """The card, described in words: ``"Ace of spades"``."""
        card = self.check(cards)[0]
        description = card.name[0].upper() + card.name[1:]
        return Evaluation(_STRENGTHS[card.code], Category.HIGH_CARD, (card,), description)
